import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property, type AnyFunction } from "../harness/index.js";
import { validTensorParallelSizes } from "../../lib/tensor-parallel/index.js";
import type { validTpSizes } from "./valid-tp.js";

type F = typeof validTpSizes;
const reference: F = (config, maxT) => validTensorParallelSizes(config, maxT);
const HINT = "see the section “Which T fit a model”";
const same = (f: F, args: Parameters<F>, hint = HINT) => expectSame(f, reference, args, { hint, name: "validTpSizes" });

async function rangeError(f: F, args: Parameters<F>, re: RegExp): Promise<void> {
  await expectThrows(f as AnyFunction, args as unknown[], re, { class: RangeError });
}

export default defineExercise<F>({
  id: "6.3",
  title: "valid tensor-parallel sizes of a config",
  chapter: "tensor-parallel",
  file: "exercises/tensor-parallel/valid-tp.ts",
  exportName: "validTpSizes",
  signature: "validTpSizes(config: {numHeads, numKvHeads?, hiddenSize, ffnHiddenSize}, maxT?: number): number[]",
  summary:
    "Every T from 1 to maxT (default numHeads) that Megatron-LM accepts today: T divides the heads and the FFN size, the KV heads are a multiple or a divisor of T, and above the KV heads the fused QKV width splits into T blocks. RangeError naming the field for a bad size.",
  reference,
  section: "which-t-fit-a-model",
  checks: [
    { name: "worked example (Llama-2-13B)", points: 1, run: async (f) => { await same(f, [{ numHeads: 40, hiddenSize: 5120, ffnHiddenSize: 13824 }]); } },
    { name: "real configs (Llama-2-7B, 70B, Mistral-7B)", points: 2, run: async (f) => {
        await same(f, [{ numHeads: 32, hiddenSize: 4096, ffnHiddenSize: 11008 }], "Llama-2-7B: 11008 = 2⁸·43");
        await same(f, [{ numHeads: 64, numKvHeads: 8, hiddenSize: 8192, ffnHiddenSize: 28672 }], "Llama-2-70B: 8 KV heads; since Megatron commit f7dfb99, T = 16, 32, 64 are accepted (the QKV activation is all-gathered)");
        await same(f, [{ numHeads: 32, numKvHeads: 8, hiddenSize: 4096, ffnHiddenSize: 14336 }, 8], "Mistral-7B up to one node (maxT = 8)");
    } },
    { name: "KV heads neither a multiple nor a divisor of T", points: 1, run: async (f) => {
        await same(f, [{ numHeads: 24, numKvHeads: 8, hiddenSize: 24 * 64, ffnHiddenSize: 24 * 64 }], "T = 3, 6, 12, 24 divide the heads; but 8 KV heads are neither a multiple nor a divisor of 3, 6, 12 or 24");
        await same(f, [{ numHeads: 12, numKvHeads: 12, hiddenSize: 768, ffnHiddenSize: 3070 }], "an FFN size that 4 does not divide");
    } },
    { name: "more ranks than KV heads: the fused QKV weight must split into T blocks", points: 1, run: async (f) => {
        await same(f, [{ numHeads: 8, numKvHeads: 1, hiddenSize: 8, ffnHiddenSize: 64 }], "8 heads, 1 KV head, headDim 1: the fused QKV weight has (8 + 2)·1 = 10 columns, which 4 and 8 do not divide");
        await same(f, [{ numHeads: 28, numKvHeads: 4, hiddenSize: 3584, ffnHiddenSize: 28 * 64 }], "28 heads, 4 KV heads, headDim 128: T = 28 is a multiple of 4, but (28 + 8)·128 = 4608 does not divide by 28");
    } },
    { name: "random configs", points: 1, run: (f) => property(
        fc.record({ a: fc.integer({ min: 1, max: 64 }), g: fc.integer({ min: 1, max: 8 }), hd: fc.integer({ min: 1, max: 128 }), ffn: fc.integer({ min: 1, max: 50000 }), maxT: fc.option(fc.integer({ min: 1, max: 80 }), { nil: undefined }) }),
        async ({ a, g, hd, ffn, maxT }) => {
          const divisors = Array.from({ length: a }, (_, i) => i + 1).filter((k) => a % k === 0);
          await same(f, [{ numHeads: a, numKvHeads: divisors[Math.min(g, divisors.length) - 1]!, hiddenSize: a * hd, ffnHiddenSize: ffn }, maxT]);
        }, { numRuns: 80 }) },
    { name: "bad input: RangeError naming the field", points: 1, run: async (f) => {
        await rangeError(f, [{ numHeads: 0, hiddenSize: 8, ffnHiddenSize: 8 }], /^numHeads must be an integer >= 1, got 0$/);
        await rangeError(f, [{ numHeads: 4, hiddenSize: 8, ffnHiddenSize: 2.5 }], /^ffnHiddenSize must be an integer >= 1, got 2\.5$/);
        await rangeError(f, [{ numHeads: 4, hiddenSize: 8, ffnHiddenSize: 8 }, 0], /^maxT must be an integer >= 1, got 0$/);
        await rangeError(f, [{ numHeads: 8, numKvHeads: 3, hiddenSize: 8, ffnHiddenSize: 8 }], /^numKvHeads \(3\) must divide numHeads \(8\)$/);
    } },
  ],
});
