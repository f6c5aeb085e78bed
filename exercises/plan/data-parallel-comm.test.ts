import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { dataParallelCommTime as lib } from "../../lib/plan/index.js";
import type { dataParallelCommTime } from "./data-parallel-comm.js";

type F = typeof dataParallelCommTime;
type O = Parameters<F>[0];
const reference: F = (o) => lib(o);
const HINT = "see the section on communication that nothing hides (/plan#communication-that-nothing-hides): which collectives each ZeRO stage runs, how often, and behind what";
const same = async (f: F, o: O, hint = HINT): Promise<void> => { await expectSame(f, reference, [o], { tol: { rel: 1e-9, abs: 1e-15 }, hint, name: "dataParallelCommTime" }); };
const example: O = { zeroStage: 0, shardParams: 1e9, dataParallel: 8, microBatches: 4, link: { alphaS: 0, bandwidthBytesPerS: 100e9 }, bytesPerElement: 2, backwardPerMicroBatchS: 0.02, busyPerMicroBatchS: 0.03 };
const arb = (stage: 0 | 1 | 2 | 3) => fc.record({
  shardParams: fc.integer({ min: 1, max: 2e10 }), dataParallel: fc.integer({ min: 1, max: 512 }), microBatches: fc.integer({ min: 1, max: 64 }),
  alphaS: fc.constantFrom(0, 5e-6), bw: fc.constantFrom(12.5e9, 25e9, 300e9), bytes: fc.constantFrom(2, 4),
  backward: fc.double({ min: 0, max: 5, noNaN: true }), extra: fc.double({ min: 0, max: 3, noNaN: true }),
}).map((r): O => ({ zeroStage: stage, shardParams: r.shardParams, dataParallel: r.dataParallel, microBatches: r.microBatches, link: { alphaS: r.alphaS, bandwidthBytesPerS: r.bw },
  bytesPerElement: r.bytes, backwardPerMicroBatchS: r.backward, busyPerMicroBatchS: r.backward + r.extra }));

export default defineExercise<F>({
  id: "12.3",
  title: "exposed data-parallel communication",
  chapter: "plan",
  section: "communication-that-nothing-hides",
  file: "exercises/plan/data-parallel-comm.ts",
  exportName: "dataParallelCommTime",
  signature: "dataParallelCommTime(o: { zeroStage, shardParams, dataParallel, microBatches, link, bytesPerElement, backwardPerMicroBatchS, busyPerMicroBatchS }): { exposedS, hiddenS }",
  summary:
    "The ring collectives of one optimizer step per ZeRO stage as DeepSpeed issues them (the gradient all-reduce once per step for stages 0–1 and per micro-batch for 2, the parameter all-gather after the step for 1 and 2, ZeRO-3's 3Ψ per micro-batch), each hidden behind the computation it overlaps as far as that lasts. Return the exposed and hidden seconds.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: (f) => same(f, example) },
    { name: "stage 0: one all-reduce per step", points: 1, run: (f) => property(arb(0), (o) => same(f, o), { numRuns: 80 }) },
    { name: "stage 1: one all-reduce, then the parameter all-gather", points: 1, run: (f) => property(arb(1), (o) => same(f, o), { numRuns: 80 }) },
    { name: "stage 2: an all-reduce per micro-batch, then an all-gather", points: 1, run: (f) => property(arb(2), (o) => same(f, o), { numRuns: 80 }) },
    { name: "stage 3: 3Ψ per micro-batch behind forward and backward", points: 1, run: (f) => property(arb(3), (o) => same(f, o), { numRuns: 80 }) },
    { name: "one rank, and bad input by name", points: 1, run: async (f) => {
        await same(f, { ...example, zeroStage: 3, dataParallel: 1 }, "one rank communicates nothing");
        await expectThrows(f, [{ ...example, zeroStage: 4 as never }], /^zeroStage must be 0, 1, 2 or 3, got 4$/, { class: RangeError });
        await expectThrows(f, [{ ...example, microBatches: 0 }], /^microBatches must be an integer >= 1, got 0$/, { class: RangeError });
        await expectThrows(f, [{ ...example, backwardPerMicroBatchS: -1 }], /^backwardPerMicroBatchS must be a finite number >= 0, got -1$/, { class: RangeError });
        await expectThrows(f, [{ ...example, busyPerMicroBatchS: Number.NaN }], /^busyPerMicroBatchS must be a finite number >= 0, got NaN$/, { class: RangeError });
    } },
  ],
});
