import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { collectiveCost } from "../collectives/index.js";
import { parameterCount } from "../memory/index.js";
import { clusterPreset, enumeratePlans, gptArch, stepTime, type Plan, type Workload } from "./index.js";

const arch = gptArch({ hiddenSize: 4096, numLayers: 32, numHeads: 32, vocabSize: 51200, seqLen: 2048 });
const w: Workload = { globalBatch: 64, seqLen: 2048, precision: "bf16", optimizer: "adamw" };
const base: Plan = { dataParallel: 1, tensorParallel: 1, pipelineParallel: 1, zeroStage: 0, offload: "none", recompute: "none", sequenceParallel: false, attention: "flash", microBatch: 4, gradAccum: 16 };
const oneGpu = { ...clusterPreset("8x-a100-80gb"), gpusPerNode: 1 };
const EXPOSED = ["computeS", "recomputeS", "tpCommS", "pipelineBubbleS", "pipelineSendS", "dataParallelExposedS", "offloadExposedS"] as const;

describe("stepTime", () => {
  it("worked example, one GPU: only compute, 6Ψ per token at 60 % of 312 TFLOP/s", () => {
    const psi = parameterCount(arch).total;
    const t = stepTime(arch, base, oneGpu, w);
    expect(t.computeS).toBeCloseTo((6 * psi * 64 * 2048) / (312e12 * 0.6), 9);
    expect(t.totalS).toBe(t.computeS);
    for (const k of EXPOSED.slice(1)) expect(t[k]).toBe(0);
  });
  it("full recomputation adds the third of 6Ψ that one more forward costs (8Ψ in all)", () => {
    const t = stepTime(arch, { ...base, recompute: "full" }, oneGpu, w);
    expect(t.recomputeS / t.computeS).toBeCloseTo(2 / 6, 12);
  });
  it("DDP on 8 GPUs: one ring all-reduce of the bf16 gradients, hidden behind the last micro-batch's backward up to its length", () => {
    const c = clusterPreset("8x-a100-80gb");
    const plan = { ...base, dataParallel: 8, gradAccum: 2 };
    const t = stepTime(arch, plan, c, w);
    const ar = collectiveCost("ring-all-reduce", parameterCount(arch).total, 8, c.intraNode, 2).timeS;
    expect(t.dataParallelHiddenS + t.dataParallelExposedS).toBeCloseTo(ar, 12);
    expect(t.dataParallelHiddenS).toBeCloseTo(Math.min(ar, (t.computeS * 2) / 3 / 2), 12);
  });
  it("ZeRO-3 moves 1.5× the bytes of DDP per micro-batch (ZeRO §7: 3Ψ against 2Ψ)", () => {
    const c = clusterPreset("64x-h100-80gb");
    const p0 = { ...base, dataParallel: 64, gradAccum: 1, microBatch: 1 };
    const t0 = stepTime(arch, p0, c, w);
    const t3 = stepTime(arch, { ...p0, zeroStage: 3 }, c, w);
    const comm = (t: ReturnType<typeof stepTime>) => t.dataParallelExposedS + t.dataParallelHiddenS;
    // Without latency the ratio is exactly 3/2; with α it is within a hair of it.
    expect(comm(t3) / comm(t0)).toBeCloseTo(1.5, 2);
  });
  it("tensor parallelism adds its collectives; with full recomputation the forward ones run twice", () => {
    const c = clusterPreset("8x-a100-80gb");
    const p = { ...base, tensorParallel: 8, gradAccum: 16 };
    const a = stepTime(arch, p, c, w).tpCommS;
    const b = stepTime(arch, { ...p, recompute: "full" }, c, w).tpCommS;
    expect(a).toBeGreaterThan(0);
    expect(b / a).toBeCloseTo(1.5, 12); // 2 forward + 2 backward all-reduces → 4 + 2
  });
  it("the 1F1B bubble is (p − 1)/m of the busy time", () => {
    const c = clusterPreset("8x-a100-80gb");
    const t = stepTime(arch, { ...base, pipelineParallel: 8, gradAccum: 16 }, c, w);
    expect(t.pipelineBubbleS / (t.computeS + t.recomputeS + t.tpCommS)).toBeCloseTo(7 / 16, 12);
  });
  it("property: the total is the sum of the exposed terms, every term finite and ≥ 0 (no byte counted twice or lost)", () => {
    const c = clusterPreset("64x-h100-80gb");
    const plans = enumeratePlans(arch, c, w, { microBatches: [1, 2] });
    fc.assert(fc.property(fc.integer({ min: 0, max: plans.length - 1 }), (i) => {
      const t = stepTime(arch, plans[i], c, w);
      const sum = EXPOSED.reduce((s, k) => s + t[k], 0);
      expect(t.totalS).toBeCloseTo(sum, 9);
      for (const k of [...EXPOSED, "dataParallelHiddenS", "offloadHiddenS"] as const) {
        expect(Number.isFinite(t[k]) && t[k] >= 0, k).toBe(true);
      }
    }), { numRuns: 200 });
  });
  it("bad assumptions name the option", () => {
    expect(() => stepTime(arch, base, oneGpu, w, { computeEfficiency: 0 })).toThrow(/computeEfficiency must be in \(0, 1\], got 0/);
    expect(() => stepTime(arch, base, oneGpu, w, { cpuAdamParamsPerS: -1 })).toThrow(/cpuAdamParamsPerS must be a finite number > 0, got -1/);
  });
});
