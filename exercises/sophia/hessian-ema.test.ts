import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property, type AnyFunction } from "../harness/index.js";
import { hessianEma as lib } from "../../lib/sophia/index.js";
import type { hessianEma } from "./hessian-ema.js";

const reference: typeof hessianEma = (h, g, b) => Array.from(lib(h, g, b));
const tol = { tol: { abs: 1e-12, rel: 1e-12 } };
const HINT = "the chapter's section \"The algorithm line by line\"";

async function rangeError(f: typeof hessianEma, args: Parameters<typeof hessianEma>, re: RegExp, hint: string) {
  await expectThrows(f as AnyFunction, args as unknown[], re, { class: RangeError, hint });
}

export default defineExercise({
  id: "11.2",
  kind: "transcription",
  title: "update_hessian: the curvature EMA",
  chapter: "sophia",
  file: "exercises/sophia/hessian-ema.ts",
  exportName: "hessianEma",
  signature: "hessianEma(h: number[], gHat: number[], beta2: number): number[]",
  section: "the-algorithm-line-by-line",
  summary:
    "Return Sophia's new curvature state from the old one and the estimator's gradient, as update_hessian in the authors' sophia.py computes it (β2 on the old state, no batch-size factor). Bad input throws a RangeError naming the field.",
  reference,
  checks: [
    { name: "the stub's example", points: 2, run: async (f) => { await expectSame(f, reference, [[1, 0], [2, -1], 0.9], { ...tol, hint: HINT }); } },
    { name: "random vectors, negative and zero entries, β2 = 0", points: 4, run: (f) => property(
        fc.record({ rows: fc.array(fc.tuple(fc.oneof(fc.constant(0), fc.double({ min: 0, max: 5, noNaN: true })), fc.oneof(fc.constant(0), fc.double({ min: -5, max: 5, noNaN: true }))), { minLength: 1, maxLength: 9 }), b: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 0.999, noNaN: true })) }),
        async ({ rows, b }) => { await expectSame(f, reference, [rows.map((r) => r[0]), rows.map((r) => r[1]), b], { ...tol, hint: `which of the two terms does β2 weight? ${HINT}` }); },
        { numRuns: 60 }) },
    { name: "bad input names the field", points: 2, run: async (f) => {
        await rangeError(f, [[0], [1], 1], /beta2/, "β2 = 1 would never update the state");
        await rangeError(f, [[0], [1], -0.1], /beta2/, "β2 must be in [0, 1)");
        await rangeError(f, [[0, 0], [1], 0.9], /gHat/, "lengths must match");
        await rangeError(f, [[0, 0], [1, NaN], 0.9], /gHat\[1\]/, "a NaN would poison the state forever");
    } },
  ],
});
