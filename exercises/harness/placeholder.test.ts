// A scaffold's placeholder exercise (define.ts, `placeholder: true`) is not graded until it is real:
// the grade command leaves it out of every run that does not name it by its id (the scorecard and its
// totals, Gradescope's results, which run_autograder gets from this command, the CSV of a class), and
// the Classroom workflow has no test for it (classroom.test.ts). The whole path, in a scaffolded copy:
// test/scaffold.test.ts.
import { describe, it, expect } from "vitest";
import { selectGraders } from "./cli.js";
import { isGraded } from "./define.js";

const ex = (id: string, chapter: string, placeholder?: boolean) => ({ exercise: { id, chapter, ...(placeholder ? { placeholder } : {}) } as never });
const ids = (gs: { exercise: { id: string } }[]) => gs.map((g) => g.exercise.id);

describe("a placeholder exercise", () => {
  it("isGraded is false for a placeholder only", () => {
    expect([isGraded({ placeholder: true }), isGraded({ placeholder: false }), isGraded({})]).toEqual([false, true, true]);
  });

  it("selectGraders leaves it out of every run, unless it is named by its id", () => {
    const all = [ex("1.1", "precision"), ex("1.2", "precision"), ex("1.3", "precision", true), ex("2.1", "memory")];
    expect(ids(selectGraders(all, []))).toEqual(["1.1", "1.2", "2.1"]);
    expect(ids(selectGraders(all, ["precision"]))).toEqual(["1.1", "1.2"]);
    expect(ids(selectGraders(all, ["1"]))).toEqual(["1.1", "1.2"]);
    expect(ids(selectGraders(all, ["1.3"]))).toEqual(["1.3"]);
    expect(ids(selectGraders(all, ["memory", "1.3"]))).toEqual(["1.3", "2.1"]);
    expect(ids(selectGraders(all, ["1.2", "2.1"]))).toEqual(["1.2", "2.1"]);
  });
});
