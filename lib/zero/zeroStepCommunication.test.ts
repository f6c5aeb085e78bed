import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { zeroStepCommunication, type StepCommunicationOptions } from "./zeroStepCommunication.js";
import { trainZero } from "./trainZero.js";

const psiOf = (o: Partial<StepCommunicationOptions> & { stage: number }) => zeroStepCommunication({ dataParallel: 8, numParams: 1e9, ...o }).psiUnits;
const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);

describe("zeroStepCommunication", () => {
  it("the notes' run (P = 8, --gradient_accumulation_steps 8), worked by hand from DeepSpeed edaa722 and PyTorch DDP", () => {
    const K = 8;
    // DDP: one all-reduce (2Ψ) on the boundary under no_sync, one per micro-batch without it.
    expect(psiOf({ stage: 0, gradAccumSteps: K })).toBe(2);
    expect(psiOf({ stage: 0, gradAccumSteps: K, noSync: false })).toBe(16);
    // ZeRO-1: reduce once at the boundary (Ψ per-owner reduces, 2Ψ bucket all-reduce), then all-gather Ψ.
    expect(psiOf({ stage: 1, gradAccumSteps: K, multiRankBucketAllreduce: false })).toBe(2);
    expect(psiOf({ stage: 1, gradAccumSteps: K })).toBe(3);
    // ZeRO-2: the reduction after every micro-batch, then all-gather Ψ.
    expect(psiOf({ stage: 2, gradAccumSteps: K, multiRankBucketAllreduce: false })).toBe(8 + 1);
    expect(psiOf({ stage: 2, gradAccumSteps: K })).toBe(8 * 2 + 1);
    // ZeRO-3: gather forward, gather backward, reduce-scatter, per micro-batch.
    expect(psiOf({ stage: 3, gradAccumSteps: K })).toBe(24);
    // engine.coalesce_grad_reduction(): one reduction per step.
    expect(psiOf({ stage: 2, gradAccumSteps: K, multiRankBucketAllreduce: false, coalesceGradReduction: true })).toBe(2);
    expect(psiOf({ stage: 3, gradAccumSteps: K, coalesceGradReduction: true })).toBe(8 * 2 + 1);
  });

  it("K = 1 gives the ZeRO paper's §7.2 figures for the paper's design: 2Ψ for DDP, P_os and P_os+g, 3Ψ for P_os+g+p", () => {
    expect([0, 1, 2, 3].map((stage) => psiOf({ stage, multiRankBucketAllreduce: false }))).toEqual([2, 2, 2, 3]);
  });

  it("lists the collectives in issue order with their kind and timing (stage 2, DeepSpeed's default)", () => {
    const c = zeroStepCommunication({ stage: 2, dataParallel: 4, numParams: 1000, gradAccumSteps: 8 });
    expect(c.collectives.map((x) => [x.kind, x.tensor, x.when, x.timesPerStep, x.elements, x.elementsSent])).toEqual([
      ["all-reduce", "gradients", "per-micro-batch", 8, 1000, 2 * 3 * 1000],
      ["all-gather", "parameters", "after-step", 1, 1000, 3 * 1000],
    ]);
    expect(c.elementsSent).toBe(8 * 6000 + 3000);
    expect(c.elementsSentPerRank).toBe(c.elementsSent / 4);
  });

  it("equals the message log of the simulated World (the paper's design, K = 1) for every stage, P not dividing Ψ, with persistent tensors", () => {
    for (const [P, stage, threshold] of [[3, 0, 0], [4, 1, 0], [7, 2, 0], [6, 3, 0], [4, 3, 100]]) {
      const run = trainZero({ numRanks: P, stage, steps: 1, knobs: { stage3_param_persistence_threshold: threshold } });
      const persistent = run.units.flatMap((u) => u.params).filter((p) => p.persistent).reduce((n, p) => n + p.end - p.start, 0);
      if (threshold > 0) expect(persistent).toBeGreaterThan(0);
      const want = zeroStepCommunication({ stage, dataParallel: P, numParams: run.numParams, multiRankBucketAllreduce: false, persistentParams: persistent });
      expect(sum(run.records[0].elementsSent), `P=${P} stage ${stage}`).toBe(want.elementsSent);
    }
  });

  it("stage3_max_reuse_distance spares part of the backward gather: R = 1e9 on Ψ = 7e9 keeps 5e8 elements across the turn; R ≥ 2Ψ keeps all", () => {
    const c = zeroStepCommunication({ stage: 3, dataParallel: 8, numParams: 7e9, gradAccumSteps: 8, maxReuseDistance: 1e9 });
    expect(c.collectives[1].elements).toBe(6.5e9);
    expect(c.psiUnits).toBeCloseTo(8 * (1 + 6.5 / 7 + 1), 12);
    const all = zeroStepCommunication({ stage: 3, dataParallel: 8, numParams: 1e8, maxReuseDistance: 1e9 });
    expect(all.collectives.map((x) => x.what)).not.toContain("backward: all-gather each unit again");
    expect(all.psiUnits).toBe(2);
  });

  it("P = 1 sends nothing; errors name the field and the range", () => {
    expect(zeroStepCommunication({ stage: 3, dataParallel: 1, numParams: 10, gradAccumSteps: 4 }).elementsSent).toBe(0);
    const bad: [Partial<StepCommunicationOptions>, RegExp][] = [
      [{ stage: 4 }, /stage must be 0, 1, 2 or 3, got 4/],
      [{ dataParallel: 0 }, /dataParallel must be an integer >= 1, got 0/],
      [{ numParams: 0 }, /numParams must be an integer >= 1, got 0/],
      [{ gradAccumSteps: 1.5 }, /gradAccumSteps must be an integer >= 1, got 1.5/],
      [{ stage: 3, persistentParams: 2000 }, /persistentParams must be an integer >= 0 and <= numParams \(1000\), got 2000/],
      [{ noSync: "yes" as unknown as boolean }, /noSync must be true or false, got "yes"/],
      [{ stage: 2, noSync: true }, /noSync applies to stages 0 and 1, got stage 2/],
      [{ stage: 0, coalesceGradReduction: true }, /coalesceGradReduction needs stage 1, 2 or 3, got stage 0/],
      [{ stage: 3, maxReuseDistance: -1 }, /maxReuseDistance must be an integer >= 0, got -1/],
    ];
    for (const [o, re] of bad) expect(() => zeroStepCommunication({ stage: 0, dataParallel: 4, numParams: 1000, ...o })).toThrow(re);
  });

  it("property: per rank = Ψ units × Ψ × (P−1)/P; more micro-batches never send less; issue order follows time; the bucket all-reduce adds exactly one Ψ per reduction", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 16 }), fc.boolean(),
      (stage, P, psi, K, multi) => {
        const o = { stage, dataParallel: P, numParams: psi, gradAccumSteps: K, multiRankBucketAllreduce: multi };
        const c = zeroStepCommunication(o);
        expect(c.elementsSentPerRank).toBeCloseTo((c.psiUnits * psi * (P - 1)) / P, 6);
        expect(zeroStepCommunication({ ...o, gradAccumSteps: K + 1 }).elementsSent).toBeGreaterThanOrEqual(c.elementsSent);
        const whens = c.collectives.map((x) => ["per-micro-batch", "boundary", "after-step"].indexOf(x.when));
        expect(whens.every((w, i) => i === 0 || w >= whens[i - 1])).toBe(true);
        if (stage === 1 || stage === 2) {
          const reductions = stage === 2 ? K : 1;
          expect(zeroStepCommunication({ ...o, multiRankBucketAllreduce: true }).psiUnits - zeroStepCommunication({ ...o, multiRankBucketAllreduce: false }).psiUnits).toBeCloseTo(reductions, 9);
        }
      }));
  });
});
