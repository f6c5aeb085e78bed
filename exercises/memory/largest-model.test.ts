import * as fc from "fast-check";
import { defineExercise, expectCall, expectSame, expectThrows, property, fail } from "../harness/index.js";
import { largestModel as libLargestModel, modelStateBytes } from "../../lib/memory/index.js";
import type { largestModel } from "./largest-model.js";

type F = typeof largestModel;
type Stage = 0 | 1 | 2 | 3;
const reference: F = (numGpus, zeroStage, gpuBytes) => {
  if (!Number.isInteger(numGpus) || numGpus < 1 || numGpus > 65536) throw new RangeError(`numGpus must be an integer in [1, 65536], got ${numGpus}`);
  if (![0, 1, 2, 3].includes(zeroStage)) throw new RangeError(`zeroStage must be 0, 1, 2 or 3, got ${zeroStage}`);
  return libLargestModel({ dataParallel: numGpus, zeroStage, gpuBytes });
};
const states = (params: number, n: number, stage: Stage) => {
  const m = modelStateBytes({ params, dataParallel: n, zeroStage: stage, precision: "fp16", optimizer: "adamw" });
  return m.parameters + m.gradients + m.optimizerStates;
};

const SECTION = "see the page's section \"Model states: two mixed-precision designs\" (src/memory.md#model-states-two-mixed-precision-designs)";
const PAD = "a partition is ⌈Ψ/N⌉ whole elements: the largest Ψ need not be a multiple of N, and dividing the bytes ignores the padding";
const same = (f: F, args: Parameters<F>, hint: string) => expectSame(f, reference, args, { name: "largestModel", hint });

export default defineExercise({
  id: "2.2",
  kind: "concept",
  title: "the largest model whose states fit, per ZeRO stage",
  chapter: "memory",
  section: "model-states-two-mixed-precision-designs",
  file: "exercises/memory/largest-model.ts",
  exportName: "largestModel",
  signature: "largestModel(numGpus: number, zeroStage: 0 | 1 | 2 | 3, gpuBytes: number): number",
  summary:
    "The inverse of the page's model-state count: the largest Ψ whose 16-bit weights, 16-bit gradients and fp32 Adam states (K = 12) fit in a GPU's bytes when ZeRO stage 0–3 partitions them over N GPUs, each partition ⌈Ψ/N⌉ whole elements. The ZeRO paper's Table 2 (64 GPUs of 32 GB: 2B, 7.6B, 14.4B, 128B) is the worked example; equal fits, and trillion-parameter answers must be exact.",
  reference,
  checks: [
    { name: "the stub's example: 128B with ZeRO-3 on 64 × 32 GB", points: 1, run: async (f) => {
        await expectCall(f, [64, 3, 32e9], 128e9, { name: "largestModel", hint: `the stub's example; ${SECTION}` });
    } },
    { name: "ZeRO Table 2: 2B, 7.6B, 14.4B (64 × 32 GB)", points: 2, run: async (f) => {
        const printed = [2, 7.6, 14.4];
        for (const stage of [0, 1, 2] as const) {
          const got = await same(f, [64, stage, 32e9], `which states each stage partitions; ${SECTION}`);
          if (Math.abs(got / 1e9 - printed[stage]!) > 0.05) fail(`stage ${stage}: ${got / 1e9}B parameters, the paper prints ${printed[stage]}B`);
        }
    } },
    { name: "exactly at the limit: equal fits, one byte less does not", points: 2, run: async (f) => {
        // the paper's stage-1 answer, 7,641,791,042 parameters, takes exactly 32e9 bytes
        for (const [n, stage, psi] of [[64, 1, 7_641_791_042], [8, 2, 1000], [3, 3, 10], [1, 0, 5]] as const) {
          const bytes = states(psi, n, stage);
          await same(f, [n, stage, bytes], `the states of Ψ = ${psi} take exactly ${bytes} bytes: they fit (≤)`);
          await same(f, [n, stage, bytes - 1], "one byte less: that Ψ no longer fits");
        }
    } },
    { name: "partitions are whole elements, padded", points: 2, run: async (f) => {
        for (const [n, stage, bytes] of [[3, 1, 100], [7, 3, 1000], [5, 2, 999], [64, 1, 31_999_999_999]] as const) await same(f, [n, stage, bytes], PAD);
    } },
    { name: "nothing fits, one GPU", points: 1, run: async (f) => {
        for (const [n, stage, bytes] of [[8, 0, 15], [8, 3, 0], [1, 3, 160], [1, 2, 16 * 1e9 + 15]] as const) await same(f, [n, stage, bytes], "below 16 bytes not one parameter fits; on one GPU every stage holds 16 bytes per parameter");
    } },
    { name: "trillion-parameter answers are exact integers", points: 1, run: async (f) => {
        for (const [n, stage, bytes] of [[1024, 3, 80 * 2 ** 30], [65536, 3, 2 ** 40 - 1], [4096, 2, 2 ** 40], [1024, 1, 80 * 2 ** 30 + 7]] as const) {
          await same(f, [n, stage, bytes], "the answer fits and one more parameter does not: count whole-element partitions, exactly (dividing the bytes ignores the padding, and a division in floating point is off too at this size)");
        }
    } },
    { name: "random clusters", points: 2, run: (f) => property(fc.tuple(fc.integer({ min: 1, max: 65536 }), fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<Stage>, fc.integer({ min: 0, max: 2 ** 40 })),
        async ([n, stage, bytes]) => { await same(f, [n, stage, bytes], `compare with the cases above; ${SECTION}`); }, { numRuns: 200 }) },
    { name: "bad input: RangeError naming the argument", points: 1, run: async (f) => {
        for (const [args, re] of [[[0, 1, 1e9], /numGpus/], [[2.5, 1, 1e9], /numGpus/], [[8, 4, 1e9], /zeroStage/], [[8, 1.5, 1e9], /zeroStage/], [[8, 1, -1], /gpuBytes/], [[8, 1, 1.5], /gpuBytes/], [[8, 1, 2 ** 41], /gpuBytes/], [[65537, 1, 1e9], /numGpus/]] as const) {
          await expectThrows(f, args as unknown as Parameters<F>, re, { class: RangeError, name: "largestModel", hint: "the stub's contract lists each error and its message" });
        }
    } },
  ],
});
