import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, fail, property } from "../harness/index.js";
import { modelStateBytes } from "../../lib/memory/index.js";
import type { zeroModelStateBytes } from "./zero-model-states.js";

const reference: typeof zeroModelStateBytes = (params, numGpus, zeroStage) => {
  const { parameters, gradients, optimizerStates } = modelStateBytes({ params, dataParallel: numGpus, zeroStage, precision: "fp16", optimizer: "adamw" });
  return { parameters, gradients, optimizerStates };
};

const total = (m: { parameters: number; gradients: number; optimizerStates: number }) => m.parameters + m.gradients + m.optimizerStates;

export default defineExercise({
  id: "2.2",
  title: "model-state bytes per ZeRO stage",
  chapter: "memory",
  file: "exercises/memory/zero-model-states.ts",
  exportName: "zeroModelStateBytes",
  signature: "zeroModelStateBytes(params: number, numGpus: number, zeroStage: 0 | 1 | 2 | 3): { parameters, gradients, optimizerStates }",
  summary:
    "Return the bytes per GPU of 16-bit parameters, 16-bit gradients and fp32 optimizer states (master copy + Adam moments, K = 12) for mixed-precision training under ZeRO stage 0–3 over N GPUs, rounding each partition up. 7.5B parameters on 64 GPUs must give the ZeRO paper's 120, 31.4, 16.6 and 1.9 GB.",
  reference,
  checks: [
    { name: "ZeRO Figure 1 (Ψ = 7.5B, N = 64)", points: 2, run: async (f) => {
        const printed = [120, 31.4, 16.6, 1.9];
        for (const stage of [0, 1, 2, 3] as const) {
          const got = total(await expectSame(f, reference, [7.5e9, 64, stage], { hint: "K = 12: the fp32 master weights are part of the optimizer states" }));
          if (Math.abs(got / 1e9 - printed[stage]!) > 0.05) fail(`stage ${stage}: total ${got / 1e9} GB, the paper prints ${printed[stage]} GB`);
        }
    } },
    { name: "one GPU: every stage holds 16Ψ", points: 1, run: async (f) => {
        for (const stage of [0, 1, 2, 3] as const) {
          await expectCall(f, [1_000_000, 1, stage], { parameters: 2_000_000, gradients: 2_000_000, optimizerStates: 12_000_000 }, { hint: "with N = 1 nothing is partitioned: 2 + 2 + 12 bytes per parameter, where 12 = fp32 master copy 4 + momentum 4 + variance 4" });
        }
    } },
    { name: "which states each stage partitions (Llama-2-13B on 8 GPUs)", points: 2, run: async (f) => {
        for (const stage of [1, 2, 3] as const) {
          await expectSame(f, reference, [13_015_864_320, 8, stage], { hint: "stage 1: optimizer states; stage 2: + gradients; stage 3: + parameters" });
        }
    } },
    { name: "partitions round up to whole bytes", points: 1, run: async (f) => {
        await expectSame(f, reference, [10, 3, 3], { hint: "Math.ceil(bytes / N): a padded partition, never a fraction of a byte" });
        // 120/7 = 17.1 and 20/7 = 2.86: only Math.ceil gives 18 and 3 (Math.round gives 17 and 3, Math.floor 17 and 2).
        await expectSame(f, reference, [10, 7, 3], { hint: "Math.ceil(bytes / N), not Math.round: 120/7 = 17.1 bytes need an 18-byte partition" });
    } },
    { name: "random sizes and stages", points: 2, run: (f) => property(
        fc.tuple(fc.integer({ min: 0, max: 1e12 }), fc.integer({ min: 1, max: 2048 }), fc.constantFrom(0 as const, 1 as const, 2 as const, 3 as const)),
        async ([p, n, s]) => { await expectSame(f, reference, [p, n, s]); }, { numRuns: 100 }) },
  ],
});
