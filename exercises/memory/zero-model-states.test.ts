import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, fail, property, expectThrows, type AnyFunction } from "../harness/index.js";
import { modelStateBytes } from "../../lib/memory/index.js";
import type { zeroModelStateBytes } from "./zero-model-states.js";

const reference: typeof zeroModelStateBytes = (params, numGpus, zeroStage) => {
  if (typeof params !== "number" || !Number.isSafeInteger(params) || params < 0) throw new RangeError(`params must be an integer >= 0, got ${params}`);
  if (typeof numGpus !== "number" || !Number.isSafeInteger(numGpus) || numGpus < 1) throw new RangeError(`numGpus must be an integer >= 1, got ${numGpus}`);
  const { parameters, gradients, optimizerStates } = modelStateBytes({ params, dataParallel: numGpus, zeroStage, precision: "fp16", optimizer: "adamw" });
  return { parameters, gradients, optimizerStates };
};

const total = (m: { parameters: number; gradients: number; optimizerStates: number }) => m.parameters + m.gradients + m.optimizerStates;

/** Passes when f throws a RangeError whose message matches `pattern` (class and message, as the contract names both). */
async function expectRangeError(f: typeof zeroModelStateBytes, args: Parameters<typeof zeroModelStateBytes>, pattern: RegExp, hint: string): Promise<void> {
  await expectThrows(f as AnyFunction, args as unknown[], pattern, { class: RangeError, hint });
}

export default defineExercise({
  id: "2.2",
  title: "model-state bytes per ZeRO stage",
  chapter: "memory",
  section: "model-states-two-mixed-precision-designs",
  file: "exercises/memory/zero-model-states.ts",
  exportName: "zeroModelStateBytes",
  signature: "zeroModelStateBytes(params: number, numGpus: number, zeroStage: 0 | 1 | 2 | 3): { parameters, gradients, optimizerStates }",
  summary:
    "Return the bytes per GPU of 16-bit parameters, 16-bit gradients and fp32 optimizer states (DeepSpeed design, K = 12) under ZeRO stage 0–3 over N GPUs, each partition a whole number of elements. 7.5B parameters on 64 GPUs must give the ZeRO paper's 120, 31.4, 16.6 and 1.9 GB.",
  reference,
  checks: [
    { name: "ZeRO Figure 1 (Ψ = 7.5B, N = 64)", points: 2, run: async (f) => {
        const printed = [120, 31.4, 16.6, 1.9];
        for (const stage of [0, 1, 2, 3] as const) {
          const got = total(await expectSame(f, reference, [7.5e9, 64, stage], { hint: "see the section \"Model states: two mixed-precision designs\": what K counts in this design" }));
          if (Math.abs(got / 1e9 - printed[stage]!) > 0.05) fail(`stage ${stage}: total ${got / 1e9} GB, the paper prints ${printed[stage]} GB`);
        }
    } },
    { name: "one GPU: every stage holds 16Ψ", points: 1, run: async (f) => {
        for (const stage of [0, 1, 2, 3] as const) {
          await expectCall(f, [1_000_000, 1, stage], { parameters: 2_000_000, gradients: 2_000_000, optimizerStates: 12_000_000 }, { hint: "with N = 1 nothing is partitioned; the section \"Model states: two mixed-precision designs\" lists the bytes per parameter" });
        }
    } },
    { name: "which states each stage partitions (Llama-2-13B on 8 GPUs)", points: 2, run: async (f) => {
        for (const stage of [1, 2, 3] as const) {
          await expectSame(f, reference, [13_015_864_320, 8, stage], { hint: "the section names the state each stage adds to the partitioning" });
        }
    } },
    { name: "partitions are whole elements, padded", points: 2, run: async (f) => {
        // ⌈10/3⌉ = 4 elements: 8, 8, 48 bytes (rounding bytes instead gives 7, 7, 40)
        await expectSame(f, reference, [10, 3, 3], { hint: "a partition is ⌈Ψ/N⌉ elements; round elements, not bytes (the stub's convention)" });
        // ⌈10/7⌉ = 2 elements: 24 bytes of optimizer states (⌈120/7⌉ = 18 rounds bytes; 120/7 is not whole)
        await expectSame(f, reference, [10, 7, 1], { hint: "a partition is ⌈Ψ/N⌉ elements; round elements, not bytes (the stub's convention)" });
        await expectSame(f, reference, [10, 4, 2], { hint: "a partition is ⌈Ψ/N⌉ elements; round elements, not bytes (the stub's convention)" });
    } },
    { name: "bad input: RangeError naming the argument", points: 1, run: async (f) => {
        const hint = "the stub's contract lists each error and its message";
        await expectRangeError(f, [-1, 8, 2], /params/, hint);
        await expectRangeError(f, [1.5, 8, 2], /params/, hint);
        await expectRangeError(f, [Infinity, 8, 2], /params/, hint);
        await expectRangeError(f, [100, 0, 2], /numGpus/, hint);
        await expectRangeError(f, [100, 2.5, 2], /numGpus/, hint);
        await expectRangeError(f, [100, NaN, 2], /numGpus/, hint);
        await expectRangeError(f, ["100" as unknown as number, 8, 2], /params/, hint);
        await expectRangeError(f, [100, 8, 4 as 3], /zeroStage/, hint);
        await expectRangeError(f, [100, 8, 1.5 as 1], /zeroStage/, hint);
    } },
    { name: "random sizes and stages", points: 2, run: (f) => property(
        fc.tuple(fc.integer({ min: 0, max: 1e12 }), fc.integer({ min: 1, max: 2048 }), fc.constantFrom(0 as const, 1 as const, 2 as const, 3 as const)),
        async ([p, n, s]) => { await expectSame(f, reference, [p, n, s], { hint: "compare with the section's definitions for this stage and with the padding convention" }); }, { numRuns: 100 }) },
  ],
});
