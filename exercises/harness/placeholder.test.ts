// A scaffold's placeholder exercise (define.ts, `placeholder: true`) is not graded until it is real:
// the grade command leaves it out of every run that does not name it by its id (the scorecard and its
// totals, Gradescope's results, which run_autograder gets from this command), and the Classroom
// workflow has no test for it (classroom.test.ts). Fixture: test/fixtures/harness/placeholder.
import { describe, it, expect } from "vitest";
import { resolve } from "node:path";
import { gradeCommand } from "./cli.js";
import { ROOT } from "./discover.js";
import { isGraded } from "./define.js";

const graders = resolve(ROOT, "test/fixtures/harness/placeholder");
async function grade(...args: string[]) {
  const out: string[] = [], err: string[] = [];
  const code = await gradeCommand([...args, "--graders", graders], { log: (t) => out.push(t), error: (t) => err.push(t) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("a placeholder exercise", () => {
  it("isGraded is false for a placeholder only", () => {
    expect([isGraded({ placeholder: true }), isGraded({ placeholder: false }), isGraded({})]).toEqual([false, true, true]);
  });

  it("is left out of a chapter's grading and its total (Gradescope format too), and graded when named by its id", async () => {
    const chapter = await grade("1.2", "precision", "--format", "gradescope");
    expect(chapter.code, chapter.err).toBe(0);
    const gs = JSON.parse(chapter.out.slice(chapter.out.indexOf("{"))) as { tests: { name: string }[] };
    expect(gs.tests.length).toBeGreaterThan(0);
    expect(gs.tests.filter((t) => t.name.startsWith("1.92"))).toEqual([]);
    const named = await grade("1.92");
    expect(named.code, named.err).toBe(0);
    expect(named.out).toMatch(/1\.92 add two \(a placeholder\) \.+ 5\/5/); // the fixture stub (wrong.ts, x + 2) happens to be right here
    expect(named.out).toMatch(/Total 5\/5 points/);
  }, 60_000);
});
