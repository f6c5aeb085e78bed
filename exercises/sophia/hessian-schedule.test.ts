import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property, type AnyFunction } from "../harness/index.js";
import { hessianSchedule as lib } from "../../lib/sophia/index.js";
import type { hessianSchedule } from "./hessian-schedule.js";

const reference: typeof hessianSchedule = (s, k) => lib(s, k);
const HINT = "the chapter's section \"The algorithm line by line\" (the training loop's test on the step counter)";

async function rangeError(f: typeof hessianSchedule, args: Parameters<typeof hessianSchedule>, re: RegExp, hint: string) {
  await expectThrows(f as AnyFunction, args as unknown[], re, { class: RangeError, hint });
}

export default defineExercise({
  id: "11.3",
  title: "the Hessian schedule",
  chapter: "sophia",
  file: "exercises/sophia/hessian-schedule.ts",
  exportName: "hessianSchedule",
  signature: "hessianSchedule(steps: number, k: number): number[]",
  section: "the-algorithm-line-by-line",
  summary:
    "Return the 0-based steps after which the authors' training loop refreshes Sophia's curvature estimate (every k steps), for any k, also one that does not divide the run. Bad input throws a RangeError naming the field.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => { await expectSame(f, reference, [10, 4], { hint: HINT }); } },
    { name: "k = 1, k > steps, steps = 0", points: 1, run: async (f) => {
        await expectSame(f, reference, [3, 1], { hint: "k = 1: after every step" });
        await expectSame(f, reference, [9, 10], { hint: `the first refresh comes after a full interval: ${HINT}` });
        await expectSame(f, reference, [0, 3], { hint: "no step, no refresh" });
    } },
    { name: "k not dividing the step count (random)", points: 2, run: (f) => property(
        fc.record({ s: fc.integer({ min: 0, max: 200 }), k: fc.integer({ min: 1, max: 23 }) }),
        async ({ s, k }) => { await expectSame(f, reference, [s, k], { hint: HINT }); }, { numRuns: 60 }) },
    { name: "bad input names the field", points: 1, run: async (f) => {
        await rangeError(f, [10, 0], /\bk\b/, "k must be an integer >= 1");
        await rangeError(f, [10, 2.5], /\bk\b/, "k must be an integer");
        await rangeError(f, [-1, 2], /steps/, "steps must be an integer >= 0");
    } },
  ],
});
