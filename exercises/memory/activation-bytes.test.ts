import * as fc from "fast-check";
import { defineExercise, expectSame, property, expectThrows, type AnyFunction } from "../harness/index.js";
import { activationBytesPerLayer as lib } from "../../lib/memory/index.js";
import type { activationBytesPerLayer, LayerSetting } from "./activation-bytes.js";

const reference: typeof activationBytesPerLayer = (o) => lib(o);
const gpt3: LayerSetting = { seqLen: 2048, microBatch: 1, hiddenSize: 12288, numHeads: 96, tensorParallel: 1, sequenceParallel: false, recompute: "none" };
const SECTION = "the chapter's \"Activations\" section";

/** Passes when f throws a RangeError whose message matches `pattern` (the contract names the class and the message). */
async function expectRangeError(f: typeof activationBytesPerLayer, o: LayerSetting, pattern: RegExp): Promise<void> {
  await expectThrows(f as AnyFunction, [o] as unknown[], pattern, { class: RangeError });
}

export default defineExercise({
  id: "2.3",
  title: "activation bytes per layer",
  chapter: "memory",
  section: "activations",
  file: "exercises/memory/activation-bytes.ts",
  exportName: "activationBytesPerLayer",
  signature: "activationBytesPerLayer(o: LayerSetting): number",
  summary:
    "Return the exact bytes one GPU stores for one transformer layer's backward pass after Korthikanti et al. 2022 (Table 2), with tensor parallelism, sequence parallelism and selective or full recomputation, rounded up once.",
  reference,
  checks: [
    { name: "GPT-3 175B, no parallelism: sbh(34 + 5as/h)", points: 1, run: async (f) => {
        await expectSame(f, reference, [gpt3], { hint: `${SECTION}: the count without parallelism, and what 5as/h is for GPT-3` });
    } },
    { name: "tensor parallel t = 8 (Table 2)", points: 2, run: async (f) => {
        await expectSame(f, reference, [{ ...gpt3, tensorParallel: 8 }], { hint: `${SECTION}: which of the 34 tensor parallelism splits` });
    } },
    { name: "sequence parallelism splits the rest", points: 1, run: async (f) => {
        await expectSame(f, reference, [{ ...gpt3, tensorParallel: 8, sequenceParallel: true }], { hint: `${SECTION}: what sequence parallelism adds` });
    } },
    { name: "selective recomputation drops the attention term", points: 1, run: async (f) => {
        await expectSame(f, reference, [{ ...gpt3, tensorParallel: 8, recompute: "selective" }], { hint: `${SECTION}: what selective recomputation recomputes` });
    } },
    { name: "full recomputation keeps the layer input", points: 1, run: async (f) => {
        await expectSame(f, reference, [{ ...gpt3, tensorParallel: 8, recompute: "full" }], { hint: `${SECTION}: the last row of Table 2` });
        await expectSame(f, reference, [{ ...gpt3, tensorParallel: 8, recompute: "full", sequenceParallel: true }], { hint: `${SECTION}: the last row of Table 2, with sequence parallelism` });
    } },
    { name: "exact arithmetic: one rounding, at the end", points: 2, run: async (f) => {
        // sbh(34 + 5as/h) in floating point: 116·(34 + 5/116) = 3949.0000000000005, whose ceiling is one byte too many.
        await expectSame(f, reference, [{ seqLen: 1, microBatch: 1, hiddenSize: 116, numHeads: 1, tensorParallel: 1, sequenceParallel: false, recompute: "none" }], { hint: "the stub's convention: the exact value, rounded up once" });
        // t = 3: the count is a fraction with denominator 3; the numerator must be exact.
        await expectSame(f, reference, [{ seqLen: 3000, microBatch: 7, hiddenSize: 1000, numHeads: 9, tensorParallel: 3, sequenceParallel: false, recompute: "none" }], { hint: "the stub's convention: the exact value, rounded up once" });
        // A numerator beyond 2^53: 5as²b with a = 96, s = 2^20, b = 8 (BigInt, or an order that stays exact).
        await expectSame(f, reference, [{ seqLen: 2 ** 20, microBatch: 8, hiddenSize: 12288, numHeads: 96, tensorParallel: 3, sequenceParallel: false, recompute: "none" }], { hint: "the stub's convention: the exact value, rounded up once" });
    } },
    { name: "bad input: RangeError naming the field", points: 1, run: async (f) => {
        await expectRangeError(f, { ...gpt3, tensorParallel: 7 }, /tensorParallel/);
        await expectRangeError(f, { ...gpt3, seqLen: 0 }, /seqLen/);
        await expectRangeError(f, { ...gpt3, microBatch: 1.5 }, /microBatch/);
        await expectRangeError(f, { ...gpt3, hiddenSize: -12288 }, /hiddenSize/);
        await expectRangeError(f, { ...gpt3, numHeads: Infinity }, /numHeads/);
        await expectRangeError(f, { ...gpt3, tensorParallel: 0 }, /tensorParallel/);
        await expectRangeError(f, { ...gpt3, seqLen: NaN }, /seqLen/);
    } },
    { name: "random settings", points: 2, run: (f) => property(
        fc.record({
          seqLen: fc.integer({ min: 1, max: 4096 }), microBatch: fc.integer({ min: 1, max: 8 }), headDim: fc.integer({ min: 1, max: 128 }),
          heads: fc.integer({ min: 1, max: 16 }), tensorParallel: fc.constantFrom(1, 2, 3, 4, 6, 8), sequenceParallel: fc.boolean(),
          recompute: fc.constantFrom("none" as const, "selective" as const, "full" as const),
        }).map(({ headDim, heads, ...r }): LayerSetting => ({ ...r, numHeads: heads * r.tensorParallel, hiddenSize: heads * r.tensorParallel * headDim })),
        async (o) => { await expectSame(f, reference, [o], { hint: `${SECTION} for the formula; the stub's convention for the rounding` }); }, { numRuns: 100 }) },
  ],
});
