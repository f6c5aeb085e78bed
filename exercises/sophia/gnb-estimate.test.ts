import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property, fail, callSafely, type AnyFunction } from "../harness/index.js";
import { gnbLogitEstimate, sampleIndex } from "../../lib/sophia/index.js";
import { mulberry32 } from "../../lib/nn/index.js";
import type { gnbEstimate } from "./gnb-estimate.js";

const reference: typeof gnbEstimate = (p, l) => gnbLogitEstimate(p, l);
const tol = { tol: { abs: 1e-12, rel: 1e-9 } };
const HINT = "the chapter's section \"Two estimators of the curvature\"";

async function rangeError(f: typeof gnbEstimate, args: Parameters<typeof gnbEstimate>, re: RegExp, hint: string) {
  await expectThrows(f as AnyFunction, args as unknown[], re, { class: RangeError, hint });
}

export default defineExercise({
  id: "11.1",
  kind: "concept",
  title: "the GNB estimate from sampled labels",
  chapter: "sophia",
  file: "exercises/sophia/gnb-estimate.ts",
  exportName: "gnbEstimate",
  signature: "gnbEstimate(probs: number[], labels: number[]): number[]",
  section: "two-estimators-of-the-curvature",
  summary:
    "Return Sophia's Gauss-Newton-Bartlett estimate of the Hessian diagonal for one shared softmax: B times the square of the gradient of the mean loss on B labels sampled from the model's own p. Its mean over samples is p(1 − p), the true diagonal. Bad input throws a RangeError naming the field.",
  reference,
  checks: [
    { name: "the stub's examples", points: 3, run: async (f) => {
        await expectSame(f, reference, [[0.5, 0.5], [0]], { ...tol, hint: HINT });
        await expectSame(f, reference, [[0.2, 0.8], [1, 1]], { ...tol, hint: `B positions, mean loss: ${HINT}` });
    } },
    { name: "random distributions and labels, unsorted, repeated", points: 5, run: (f) => property(
        fc.record({ z: fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: 2, maxLength: 7 }), seed: fc.integer({ min: 0, max: 1e6 }), B: fc.integer({ min: 1, max: 9 }) }),
        async ({ z, seed, B }) => {
          const e = z.map((v) => Math.exp(v)), s = e.reduce((a, b) => a + b, 0), p = e.map((v) => v / s), rng = mulberry32(seed);
          await expectSame(f, reference, [p, Array.from({ length: B }, () => sampleIndex(p, 0, p.length, rng))], { ...tol, hint: `the gradient of the MEAN loss, then multiplied by B: ${HINT}` });
        }, { numRuns: 40 }) },
    { name: "its mean is p(1 − p)", points: 2, run: async (f) => {
        const p = [0.1, 0.3, 0.6], rng = mulberry32(8), S = 3000, sum = [0, 0, 0];
        for (let s = 0; s < S; s++) {
          const r = await callSafely(f, [p, [0, 1, 2, 3].map(() => sampleIndex(p, 0, 3, rng))], { hint: HINT });
          r.forEach((v: number, i: number) => (sum[i] += v / S));
        }
        p.forEach((pi, i) => { if (!(Math.abs(sum[i]! - pi * (1 - pi)) < 0.02)) fail(`the mean of 3000 estimates (B = 4) at ${i} is ${sum[i]!.toFixed(4)}; the Hessian diagonal p(1 − p) is ${(pi * (1 - pi)).toFixed(4)} (tolerance 0.02)`, HINT); });
    } },
    { name: "bad input names the field", points: 2, run: async (f) => {
        await rangeError(f, [[1], []], /labels/, "no label: nothing to average");
        await rangeError(f, [[0.5, 0.5, 0], [0, 3]], /labels\[1\]/, "a label must index a probability");
        await rangeError(f, [[0.5, 0.5], [1.5]], /labels\[0\]/, "labels are integers");
        await rangeError(f, [[0.25, 0.25], [0]], /probs/, "the probabilities must sum to 1");
        await rangeError(f, [[1.5, -0.5], [0]], /probs/, "a probability cannot be negative");
    } },
  ],
});
