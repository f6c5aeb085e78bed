import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { trainZero, reducesEveryMicroBatch, type ZeroConfig } from "./trainZero.js";
import { zeroStepCommunication } from "./zeroStepCommunication.js";
import { STEP_COMMUNICATION_SETTINGS as SETTINGS } from "./stepCommunicationSettings.js";
import { trainOneDevice } from "./trainOneDevice.js";

const sum = (a: number[]) => a.reduce((s, x) => s + x, 0);
const KNOBS = { reduce_bucket_size: 900, allgather_bucket_size: 1200, stage3_param_persistence_threshold: 0 };

describe("gradient accumulation on the simulated World", () => {
  it("a ZeRO-2 step of K = 2 micro-batches on P = 2, by hand: reduce-scatter after each micro-batch, then the parameter all-gather", () => {
    const run = trainZero({ numRanks: 2, stage: 2, steps: 1, gradAccumSteps: 2, knobs: { reduce_bucket_size: 5e8 } });
    expect(run.records[0].collectives.map((c) => `${c.kind} ${c.what} [${c.start}, ${c.end})`)).toEqual([
      "reduce-scatter grads [0, 3555)", "reduce-scatter grads [0, 3555)", "all-gather params [0, 3555)",
    ]);
    expect(run.records[0].ops.filter((o) => o.op === "step")).toHaveLength(1);
    // (K + 1)(P − 1)Ψ = 3 · 3,555 elements, the paper's design
    expect(sum(run.records[0].elementsSent)).toBe(3 * 3555);
  });

  it("the message log equals zeroStepCommunication's totals for every row of the page's table (any P, K), property", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: SETTINGS.length - 1 }), (P, K, i) => {
      const { closed, simulated: sim } = SETTINGS[i];
      const run = trainZero({ numRanks: P, steps: 1, gradAccumSteps: K, knobs: KNOBS, ...sim });
      const want = zeroStepCommunication({ ...closed, dataParallel: P, numParams: run.numParams, gradAccumSteps: K });
      expect(sum(run.records[0].elementsSent)).toBe(want.elementsSent);
    }), { numRuns: 30, seed: 26 });
  });

  it("the notes' K = 8 on P = 8: measured Ψ units equal the table's (2, 16, 2, 3, 9, 17, 3, 24, 17), worked by hand: 2K + 1 = 17 for ZeRO-2's bucket all-reduce, 3K = 24 for ZeRO-3", () => {
    const psi = SETTINGS.map(({ simulated: sim }) => {
      const run = trainZero({ numRanks: 8, steps: 1, gradAccumSteps: 8, knobs: KNOBS, ...sim });
      return sum(run.records[0].elementsSent) / (7 * run.numParams);
    });
    expect(psi).toEqual([2, 16, 2, 3, 9, 17, 3, 24, 17]);
  });

  it("reducing once (no_sync, stage 1, coalesce) and reducing every micro-batch (stages 2–3, DDP without no_sync) each agree bit for bit", () => {
    const master = (c: Partial<ZeroConfig>) => trainZero({ numRanks: 3, steps: 2, gradAccumSteps: 3, knobs: KNOBS, stage: 0, ...c }).master;
    const once = master({ stage: 0 });
    expect(master({ stage: 1 })).toEqual(once);
    expect(master({ stage: 2, coalesceGradReduction: true })).toEqual(once);
    expect(master({ stage: 3, coalesceGradReduction: true })).toEqual(once);
    const every = master({ stage: 0, noSync: false });
    expect(master({ stage: 2 })).toEqual(every);
    expect(master({ stage: 3 })).toEqual(every);
    expect(master({ stage: 1, multiRankBucketAllreduce: true })).toEqual(once); // the bucket all-reduce sums in the same order
    // the two orders (micro-batches then ranks, ranks then micro-batches) round differently in bf16
    expect(every).not.toEqual(once);
  });

  it("K micro-batches in fp32 stay within 1e-5 of one process on the whole global batch (oracle: lib/nn directly)", () => {
    const c: ZeroConfig = { numRanks: 2, stage: 2, steps: 2, gradAccumSteps: 3, precision: "fp32" };
    const run = trainZero(c), w = trainOneDevice(c);
    expect(Math.max(...w.map((x, i) => Math.abs(x - run.master[i])))).toBeLessThan(1e-5);
  });

  it("coalesce_grad_reduction trades memory for traffic: unsharded gradients stay until the last micro-batch", () => {
    const rec = (c: Partial<ZeroConfig>) => trainZero({ numRanks: 4, steps: 1, gradAccumSteps: 3, knobs: { ...KNOBS, contiguous_gradients: false }, stage: 2, ...c }).records[0];
    const every = rec({}), once = rec({ coalesceGradReduction: true });
    expect(Math.max(...once.peakBytes)).toBeGreaterThan(Math.max(...every.peakBytes));
    expect(sum(once.elementsSent)).toBeLessThan(sum(every.elementsSent));
  });

  it("K = 1 is the one-micro-batch run, unchanged: the same weights, messages and peaks", () => {
    for (const stage of [0, 1, 2, 3]) {
      const a = trainZero({ numRanks: 3, stage, steps: 2, knobs: KNOBS }), b = trainZero({ numRanks: 3, stage, steps: 2, knobs: KNOBS, gradAccumSteps: 1 });
      expect(b.master).toEqual(a.master);
      expect(b.records[0].peakBytes).toEqual(a.records[0].peakBytes);
    }
  });

  it("errors name the field", () => {
    expect(() => trainZero({ numRanks: 2, stage: 2, gradAccumSteps: 0 })).toThrow("gradAccumSteps must be an integer >= 1, got 0");
    expect(() => reducesEveryMicroBatch(2, { noSync: true })).toThrow("noSync applies to stage 0, got stage 2");
    expect(() => reducesEveryMicroBatch(0, { coalesceGradReduction: true })).toThrow("coalesceGradReduction needs stage 1, 2 or 3, got stage 0");
    expect(reducesEveryMicroBatch(1, {})).toBe(false);
    expect(reducesEveryMicroBatch(3, {})).toBe(true);
  });
});
