// The grade command as an instructor and a student run it: CONTRIBUTING.md's
// hidden-grader example (a grader outside the repository, importing the course
// by its package name), Gradescope visibility, exit statuses, "did you mean",
// --explain, and which exercises --watch grades again.
import { describe, it, expect, beforeAll } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { chaptersOf, gradeCommand } from "./cli.js";
import { affectedBy, loadGrader, ROOT, type LoadedGrader } from "./discover.js";
import { editDistance, nearest } from "../../lib/suggest.js";
import { toGradescope } from "./scorecard.js";
import type { ExerciseResult } from "./grade.js";

/** Runs the grade command in process, as `npm run grade -- …args` would; its exit status and output. */
async function grade(...args: string[]) {
  const out: string[] = [], err: string[] = [];
  const code = await gradeCommand(args, { log: (t) => out.push(t), error: (t) => err.push(t) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}
const fixtures = (name: string) => resolve(ROOT, "test/fixtures/harness", name);

describe("hidden graders outside the repository", () => {
  let dir = "";
  let example: ReturnType<typeof spawnSync>;
  beforeAll(() => {
    // CONTRIBUTING.md's example, as written there.
    const md = readFileSync(resolve(ROOT, "CONTRIBUTING.md"), "utf8");
    const script = /### Hidden graders[\s\S]*?```sh\n([\s\S]*?)```/.exec(md)?.[1];
    expect(script, "CONTRIBUTING.md has the hidden-grader example").toBeTruthy();
    example = spawnSync("bash", ["-e", "-c", `${script}\necho "DIR=$DIR"`], { cwd: ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    dir = /^DIR=(.*)$/m.exec(String(example.stdout))?.[1] ?? "";
  }, 180_000);

  it("CONTRIBUTING.md's example grades a copied public grader from a temporary folder and exits 0", async () => {
    expect(example.status, String(example.stderr)).toBe(0);
    expect(dir.startsWith(ROOT)).toBe(false);
    const copied = readFileSync(join(dir, "precision/round-bf16-hidden.test.ts"), "utf8");
    expect(copied, "every relative import was rewritten to the package name").not.toMatch(/from\s+"\.{1,2}\//);
    expect(copied).toContain(`from "llm-training-course/harness"`);
    expect(String(example.stdout)).toMatch(/loaded 1 extra grader from /);
    // It grades the public stub of 1.2 with 1.2's checks: the same verdict as 1.2 itself, whatever the
    // student has written there (npm test does not depend on the student's edits).
    const line = (out: string, id: string) => new RegExp(`^\\s*\\S ${id.replace(".", "\\.")} round to bfloat16 \\.+ (.*\\d+/\\d+)$`, "m").exec(out)?.[1];
    const own = await grade("1.2", "--format", "text");
    expect(line(String(example.stdout), "1.90")).toBeDefined();
    expect(line(String(example.stdout), "1.90")).toBe(line(own.out, "1.2"));
  });

  it("its Gradescope tests are after_published", () => {
    const results = JSON.parse(readFileSync(join(dir, "results.json"), "utf8")) as { tests: { name: string; visibility: string }[] };
    expect(results.tests.length).toBeGreaterThan(0);
    for (const t of results.tests) expect([t.name.split(" ")[0], t.visibility]).toEqual(["1.90", "after_published"]);
  });
});

describe("the grade command", () => {
  it("exits 0 whatever the score, with Gradescope visibility per test: hidden graders after_published, public ones visible", async () => {
    const r = await grade("1.91", "1.2", "--graders", fixtures("hidden"), "--format", "gradescope");
    expect(r.code, r.err).toBe(0);
    const gs = JSON.parse(r.out.slice(r.out.indexOf("{"))) as { tests: { name: string; visibility: string; status: string }[] };
    expect([...new Set(gs.tests.map((t) => `${t.name.split(" ")[0]} ${t.visibility}`))].sort()).toEqual(["1.2 visible", "1.91 after_published"]);
    expect(gs.tests.find((t) => t.name.startsWith("1.91"))?.status, "the hidden fixture's stub is wrong").toBe("failed");
  });

  it("--hidden-visibility sets the hidden tests' visibility", () => {
    const r = (id: string, hidden: boolean): ExerciseResult => ({ id, title: "t", chapter: "precision", file: "f.ts", points: 1, earned: 0, status: "failed", checks: [{ name: "c", points: 1, earned: 0, status: "failed" }], ...(hidden ? { hidden: true } : {}) });
    const gs = toGradescope([r("1.1", false), r("1.9", true)], { hiddenVisibility: "hidden" }) as { tests: { visibility: string }[] };
    expect(gs.tests.map((t) => t.visibility)).toEqual(["visible", "hidden"]);
  });

  it("exits 1 with --strict on a lost point, when a grader cannot load, or when the output cannot be written", async () => {
    expect((await grade("1.91", "--graders", fixtures("hidden"), "--strict")).code).toBe(1);
    const unwritable = await grade("1.91", "--graders", fixtures("hidden"), "--format", "junit", "--out", fixtures("no/such/folder/out.xml"));
    expect([unwritable.code, unwritable.err]).toEqual([1, expect.stringMatching(/^grading could not run: could not write .*out\.xml: there is no folder /)]);
    const broken = await grade("--graders", fixtures("broken"));
    expect([broken.code, broken.err]).toEqual([1, expect.stringMatching(/^grading could not run: could not load the graders: broken grader/)]);
  });
});

describe("usage errors suggest the nearest valid name", () => {
  it("editDistance and nearest", () => {
    expect(editDistance("precison", "precision")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(nearest("precison", ["precision", "memory"])).toBe("precision");
    expect(nearest("zro", ["zero", "watch"])).toBe("zero");
    expect(nearest("banana", ["precision", "memory"])).toBeUndefined();
    expect(nearest("precision", ["precision"])).toBeUndefined();
  });
  it("an unknown chapter, exercise, flag or format value exits 2 with a suggestion", async () => {
    expect(await grade("precison")).toMatchObject({ code: 2, err: expect.stringMatching(/^unknown chapter or exercise "precison" \(did you mean "precision"\?\)/) });
    expect(await grade("--fromat", "json")).toMatchObject({ code: 2, err: expect.stringMatching(/^unknown flag --fromat \(did you mean "--format"\?\)/) });
    expect(await grade("--format", "jsn")).toMatchObject({ code: 2, err: expect.stringMatching(/\(did you mean "json"\?\)/) });
    expect(await grade("--explain", "1.22")).toMatchObject({ code: 2, err: expect.stringMatching(/^--explain: unknown exercise "1.22" \(did you mean "1.2"\?\)/) });
  });
});

describe("only the graders a run needs are loaded", () => {
  it("chaptersOf maps slugs, chapter numbers and ids to chapters; an unknown name or no filter means all", () => {
    expect(chaptersOf(["precision", "2.1", "5"])).toEqual(["precision", "memory", "data-parallel"]);
    expect(chaptersOf(["1.2", "1.3"])).toEqual(["precision"]);
    expect(chaptersOf([])).toBeUndefined();
    expect(chaptersOf(["precison"])).toBeUndefined();
  });
});

describe("--explain", () => {
  it("prints the page section's path and text and the stub's contract, without grading", async () => {
    const r = await grade("precision", "--explain", "1.2");
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^Exercise 1\.2 — /);
    expect(r.out).toMatch(/page section: \/precision/);
    expect(r.out).toMatch(/── the contract: exercises\/precision\/round-bf16\.ts/);
    expect(r.out).toMatch(/export function roundToBf16\(x: number\): number/);
    expect(r.out).not.toMatch(/grading \d+ exercise/);
  });
});

describe("--watch grades again only what changed", () => {
  it("affectedBy maps a stub, a grader or a mutants file to its exercise; a helper file to its chapter", async () => {
    const gs: LoadedGrader[] = await Promise.all(
      ["precision/round-bf16", "precision/decode-fp16", "memory/count-parameters"].map((n) => loadGrader(resolve(ROOT, `exercises/${n}.test.ts`))),
    );
    const ids = (file: string) => affectedBy(gs, resolve(ROOT, file)).map((g) => g.exercise.id).sort();
    const [bf16, decode, count] = gs.map((g) => g.exercise.id);
    expect(ids("exercises/precision/round-bf16.ts")).toEqual([bf16]);
    expect(ids("exercises/precision/round-bf16.test.ts")).toEqual([bf16]);
    expect(ids("exercises/precision/mutants/round-bf16.ts")).toEqual([bf16]);
    expect(ids("exercises/memory/count-parameters.ts")).toEqual([count]);
    expect(ids("exercises/precision/my-helpers.ts")).toEqual([decode, bf16].sort());
    expect(ids("exercises/harness/expect.ts")).toEqual([bf16, decode, count].sort());
    expect(ids("lib/precision/round.ts")).toEqual([]);
  });
});
