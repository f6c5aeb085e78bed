import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { activationBytesPerLayer as lib } from "../../lib/memory/index.js";
import type { activationBytesPerLayer, LayerSetting } from "./activation-bytes.js";

const reference: typeof activationBytesPerLayer = (o) => lib(o);
const gpt3: LayerSetting = { seqLen: 2048, microBatch: 1, hiddenSize: 12288, numHeads: 96, tensorParallel: 1, sequenceParallel: false, recompute: "none" };

export default defineExercise({
  id: "2.3",
  title: "activation bytes per layer",
  chapter: "memory",
  file: "exercises/memory/activation-bytes.ts",
  exportName: "activationBytesPerLayer",
  signature: "activationBytesPerLayer(o: LayerSetting): number",
  summary:
    "Return the bytes one GPU stores for one transformer layer's backward pass after Korthikanti et al. 2022 (Table 2): sbh(10 + 24/t + 5as/(ht)) with tensor parallelism, everything divided by t with sequence parallelism, no 5as/(ht) term with selective recomputation, 2sbh with full recomputation.",
  reference,
  checks: [
    { name: "GPT-3 175B, no parallelism: sbh(34 + 5as/h)", points: 1, run: async (f) => {
        await expectSame(f, reference, [gpt3], { hint: "5as/h = 5·96·2048/12288 = 80 for GPT-3" });
    } },
    { name: "tensor parallel t = 8 (Table 2)", points: 2, run: async (f) => {
        await expectSame(f, reference, [{ ...gpt3, tensorParallel: 8 }], { hint: "10 of the 34 (norm inputs, dropout masks, layer inputs) are not split by t" });
    } },
    { name: "sequence parallelism splits the rest", points: 1, run: async (f) => {
        await expectSame(f, reference, [{ ...gpt3, tensorParallel: 8, sequenceParallel: true }], { hint: "with sequence parallelism all 34 are divided by t" });
    } },
    { name: "selective recomputation drops the attention term", points: 1, run: async (f) => {
        await expectSame(f, reference, [{ ...gpt3, tensorParallel: 8, recompute: "selective" }], { hint: "the 5as/(ht) term is the softmax, its dropout and the scores: those are recomputed" });
    } },
    { name: "full recomputation keeps the layer input", points: 1, run: async (f) => {
        await expectSame(f, reference, [{ ...gpt3, tensorParallel: 8, recompute: "full" }], { hint: "2sbh bytes, not split by t unless sequence parallelism is on" });
        await expectSame(f, reference, [{ ...gpt3, tensorParallel: 8, recompute: "full", sequenceParallel: true }]);
    } },
    { name: "a TP size that does not divide the heads", points: 1, run: async (f) => {
        await expectThrows(f, [{ ...gpt3, tensorParallel: 7 }], /tensorParallel/, { hint: "throw a RangeError naming tensorParallel" });
    } },
    { name: "random settings", points: 2, run: (f) => property(
        fc.record({
          seqLen: fc.integer({ min: 1, max: 4096 }), microBatch: fc.integer({ min: 1, max: 8 }), headDim: fc.integer({ min: 1, max: 128 }),
          heads: fc.integer({ min: 1, max: 16 }), tensorParallel: fc.constantFrom(1, 2, 4, 8), sequenceParallel: fc.boolean(),
          recompute: fc.constantFrom("none" as const, "selective" as const, "full" as const),
        }).map(({ headDim, heads, ...r }): LayerSetting => ({ ...r, numHeads: heads * r.tensorParallel, hiddenSize: heads * r.tensorParallel * headDim })),
        async (o) => { await expectSame(f, reference, [o], { hint: "multiply before dividing (10·sbh + 24·sbh/t + 5·a·s²·b/t): sbh·(34 + 5as/h) picks up a rounding error that Math.ceil turns into a whole byte" }); }, { numRuns: 100 }) },
  ],
});
