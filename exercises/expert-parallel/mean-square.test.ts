import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { meanSquare as reference } from "../../lib/expert-parallel/index.js";
import type { meanSquare } from "./mean-square.js";

// TODO: checks for the likely mistakes, each with a hint that points to the page's section
// (never the formula); expected values from the reference or a published figure.
const see = "see the page's section #worked-example";

export default defineExercise({
  placeholder: true, // TODO: delete this line when the grader is real: until then it is not graded (define.ts)
  id: "14.1",
  title: "mean square (TODO: the chapter's first exercise)",
  chapter: "expert-parallel",
  section: "worked-example",
  file: "exercises/expert-parallel/mean-square.ts",
  exportName: "meanSquare",
  signature: "meanSquare(xs: readonly number[]): number",
  summary: "TODO: one paragraph for the page box: what to implement, the edge cases, what to read.",
  reference: reference as typeof meanSquare,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await expectSame(f, reference, [[3, 4]], { hint: `the @example of the stub; ${see}` });
    } },
    { name: "an empty array throws a RangeError", points: 1, run: async (f) => {
        await expectThrows(f, [[]], /xs/, { class: RangeError, hint: `the contract's error; ${see}` });
    } },
    { name: "random arrays", points: 2, run: (f) => property(fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 1, maxLength: 50 }), async (xs) => {
        await expectSame(f, reference, [xs], { tol: { rel: 1e-12, abs: 1e-12 }, hint: see });
    }) },
  ],
});
