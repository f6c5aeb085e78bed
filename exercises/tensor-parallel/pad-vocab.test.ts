import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property, type AnyFunction } from "../harness/index.js";
import { paddedVocabSize } from "../../lib/tensor-parallel/index.js";
import type { paddedVocab } from "./pad-vocab.js";

type F = typeof paddedVocab;
const reference: F = (v, T, m) => paddedVocabSize(v, T, m);
const HINT = "see the section “Which T fit a model”";
const same = (f: F, args: Parameters<F>, hint = HINT) => expectSame(f, reference, args, { hint, name: "paddedVocab" });
async function rangeError(f: F, args: Parameters<F>, re: RegExp): Promise<void> {
  await expectThrows(f as AnyFunction, args as unknown[], re, { class: RangeError });
}

export default defineExercise<F>({
  id: "6.4",
  title: "padded vocabulary size",
  chapter: "tensor-parallel",
  file: "exercises/tensor-parallel/pad-vocab.ts",
  exportName: "paddedVocab",
  signature: "paddedVocab(vocabSize: number, T: number, makeVocabSizeDivisibleBy?: number): number",
  summary:
    "Megatron-LM's padded vocabulary: the smallest multiple of makeVocabSizeDivisibleBy × T (default 128) at or above vocabSize. RangeError naming the field for a size that is not a positive integer.",
  reference,
  section: "which-t-fit-a-model",
  checks: [
    { name: "worked example (GPT-2)", points: 1, run: async (f) => { await same(f, [50257, 1]); } },
    { name: "Llama-2's 32000 for T = 1, 2, 4, 8", points: 1, run: async (f) => {
        for (const T of [1, 2, 4, 8]) await same(f, [32000, T], "the multiple grows with T: 128·T");
    } },
    { name: "already a multiple; custom divisor", points: 1, run: async (f) => {
        await same(f, [256, 2], "256 is a multiple of 128·2: no padding");
        await same(f, [1, 3, 64]);
        await same(f, [50257, 8, 1], "divisor 1: pad to a multiple of T only");
    } },
    { name: "random sizes", points: 1, run: (f) => property(
        fc.tuple(fc.integer({ min: 1, max: 300000 }), fc.integer({ min: 1, max: 64 }), fc.option(fc.integer({ min: 1, max: 512 }), { nil: undefined })),
        async ([v, T, m]) => { await same(f, [v, T, m]); }, { numRuns: 100 }) },
    { name: "bad input: RangeError naming the field", points: 1, run: async (f) => {
        await rangeError(f, [0, 1], /^vocabSize must be an integer >= 1, got 0$/);
        await rangeError(f, [100, 0], /^T must be an integer >= 1, got 0$/);
        await rangeError(f, [100, 2, 0], /^makeVocabSizeDivisibleBy must be an integer >= 1, got 0$/);
    } },
  ],
});
