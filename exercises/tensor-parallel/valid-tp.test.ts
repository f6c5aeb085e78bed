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
    "Every T from 1 to maxT (default numHeads) that Megatron-LM accepts: T divides the heads, hidden and FFN sizes, and the KV heads are a multiple or a divisor of T. RangeError naming the field for a size that is not a positive integer.",
  reference,
  section: "which-t-fit-a-model",
  checks: [
    { name: "worked example (Llama-2-13B)", points: 1, run: async (f) => { await same(f, [{ numHeads: 40, hiddenSize: 5120, ffnHiddenSize: 13824 }]); } },
    { name: "real configs (Llama-2-7B, 70B, Mistral-7B)", points: 2, run: async (f) => {
        await same(f, [{ numHeads: 32, hiddenSize: 4096, ffnHiddenSize: 11008 }], "Llama-2-7B: 11008 = 2⁸·43");
        await same(f, [{ numHeads: 64, numKvHeads: 8, hiddenSize: 8192, ffnHiddenSize: 28672 }], "Llama-2-70B: 8 KV heads; T = 16 replicates each KV head on 2 ranks");
        await same(f, [{ numHeads: 32, numKvHeads: 8, hiddenSize: 4096, ffnHiddenSize: 14336 }, 8], "Mistral-7B up to one node (maxT = 8)");
    } },
    { name: "KV heads neither a multiple nor a divisor of T", points: 1, run: async (f) => {
        await same(f, [{ numHeads: 24, numKvHeads: 8, hiddenSize: 24 * 64, ffnHiddenSize: 24 * 64 }], "T = 3, 6, 12, 24 divide the heads; but 8 KV heads are neither a multiple nor a divisor of 3, 6, 12 or 24");
        await same(f, [{ numHeads: 12, numKvHeads: 12, hiddenSize: 768, ffnHiddenSize: 3070 }], "an FFN size that 4 does not divide");
    } },
    { name: "random configs", points: 1, run: (f) => property(
        fc.record({ a: fc.integer({ min: 1, max: 64 }), g: fc.integer({ min: 1, max: 8 }), hd: fc.integer({ min: 1, max: 128 }), ffn: fc.integer({ min: 1, max: 50000 }), maxT: fc.option(fc.integer({ min: 1, max: 80 }), { nil: undefined }) }),
        async ({ a, g, hd, ffn, maxT }) => { await same(f, [{ numHeads: a, numKvHeads: Math.max(1, Math.floor(a / g)), hiddenSize: a * hd, ffnHiddenSize: ffn }, maxT]); }, { numRuns: 80 }) },
    { name: "bad input: RangeError naming the field", points: 1, run: async (f) => {
        await rangeError(f, [{ numHeads: 0, hiddenSize: 8, ffnHiddenSize: 8 }], /^numHeads must be an integer >= 1, got 0$/);
        await rangeError(f, [{ numHeads: 4, hiddenSize: 8, ffnHiddenSize: 2.5 }], /^ffnHiddenSize must be an integer >= 1, got 2\.5$/);
        await rangeError(f, [{ numHeads: 4, hiddenSize: 8, ffnHiddenSize: 8 }, 0], /^maxT must be an integer >= 1, got 0$/);
    } },
  ],
});
