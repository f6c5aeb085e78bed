import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { combineMicroBatchGradients } from "../../lib/accumulation-checkpointing/index.js";
import type { accumulateMicroBatches, MicroBatchGradient } from "./accumulate-micro-batches.js";

const reference: typeof accumulateMicroBatches = (micro) => combineMicroBatchGradients(micro, "window-tokens");
const tol = { abs: 1e-12, rel: 1e-12 };

export default defineExercise({
  id: "3.1",
  title: "accumulate micro-batches with the right normalisation",
  chapter: "accumulation-checkpointing",
  file: "exercises/accumulation-checkpointing/accumulate-micro-batches.ts",
  exportName: "accumulateMicroBatches",
  signature: "accumulateMicroBatches(micro: {meanGrad: number[], numTokens: number}[]): number[]",
  summary:
    "Given each micro-batch's mean gradient and token count, return the gradient of the mean loss over all tokens of the window (Σ nᵢ·ḡᵢ / Σ nᵢ), which equals one big batch — not the mean of the means. Micro-batches with no tokens contribute nothing; a window without tokens throws a RangeError. Tolerance 1e-12 (absolute and relative).",
  reference,
  checks: [
    { name: "worked example", points: 1, run: async (f) => {
        await expectSame(f, reference, [[{ meanGrad: [1, 0], numTokens: 1 }, { meanGrad: [4, 2], numTokens: 3 }]], { tol, hint: "weight each micro-batch's mean by its token count, divide by the window's total tokens" });
    } },
    { name: "equal token counts", points: 1, run: async (f) => {
        await expectSame(f, reference, [[{ meanGrad: [3, -1], numTokens: 5 }, { meanGrad: [-1, 2], numTokens: 5 }, { meanGrad: [7, 0.5], numTokens: 5 }]], { tol, hint: "with equal counts the answer is the plain mean of the means" });
    } },
    { name: "variable lengths (the 2024 bug)", points: 2, run: async (f) => {
        await expectSame(f, reference, [[{ meanGrad: [0.2], numTokens: 512 }, { meanGrad: [-3], numTokens: 7 }, { meanGrad: [1.5], numTokens: 120 }]], { tol, hint: "a 7-token micro-batch must not weigh as much as a 512-token one: divide by Σ nᵢ, not by K" });
    } },
    { name: "all-padding micro-batches", points: 1, run: async (f) => {
        await expectSame(f, reference, [[{ meanGrad: [2, 2], numTokens: 4 }, { meanGrad: [NaN, NaN], numTokens: 0 }, { meanGrad: [-1, 5], numTokens: 2 }]], { tol, hint: "skip micro-batches with numTokens = 0: their mean is NaN" });
        await expectThrows(f, [[{ meanGrad: [NaN], numTokens: 0 }]], /token/i, { hint: "a window with no tokens has no mean: throw a RangeError mentioning tokens" });
    } },
    { name: "random windows", points: 2, run: (f) => property(
        fc.array(fc.record({ meanGrad: fc.array(fc.integer({ min: -40, max: 40 }).map((k) => k / 4), { minLength: 3, maxLength: 3 }), numTokens: fc.integer({ min: 1, max: 300 }) }), { minLength: 1, maxLength: 6 }),
        async (micro: MicroBatchGradient[]) => { await expectSame(f, reference, [micro], { tol, hint: "g = Σ nᵢ·ḡᵢ / Σ nᵢ" }); },
        { numRuns: 60 },
    ) },
  ],
});
