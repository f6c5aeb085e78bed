import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { collectiveCost } from "../collectives/index.js";
import type { MemoryEstimate } from "../memory/index.js";
import { clusterPreset, dataParallelCollectives, dataParallelCommTime, modelFlopsUtilization, reasonKind, rejectionReason, usableMemoryBytes, DEFAULT_MEMORY_HEADROOM } from "./index.js";

describe("modelFlopsUtilization", () => {
  it("MPT-70B on 64 H100: 6Ψ per token at 66,523 tokens/s is 40.9 % of 64 × 989.5 TFLOP/s (llm-foundry prints 42.57 %, adding attention)", () => {
    const mfu = modelFlopsUtilization(66523, 64862437376, 64, 989.5e12);
    expect(mfu).toBeCloseTo((6 * 64862437376 * 66523) / (64 * 989.5e12), 12);
    expect(mfu).toBeGreaterThan(0.40);
    expect(mfu).toBeLessThan(0.4257);
  });
  it("property: linear in throughput and parameters, inverse in GPUs", () => {
    fc.assert(fc.property(fc.double({ min: 1, max: 1e7, noNaN: true }), fc.integer({ min: 1, max: 4096 }), (tps, n) => {
      expect(modelFlopsUtilization(2 * tps, 1e9, n, 312e12)).toBeCloseTo(2 * modelFlopsUtilization(tps, 1e9, n, 312e12), 12);
      expect(modelFlopsUtilization(tps, 1e9, 2 * n, 312e12)).toBeCloseTo(modelFlopsUtilization(tps, 1e9, n, 312e12) / 2, 12);
    }));
  });
  it("bad input names the argument", () => {
    expect(() => modelFlopsUtilization(0, 1e9, 8, 312e12)).toThrow(/^tokensPerSecond must be a finite number > 0, got 0$/);
    expect(() => modelFlopsUtilization(1, Number.NaN, 8, 312e12)).toThrow(/^params must be a finite number > 0, got NaN$/);
    expect(() => modelFlopsUtilization(1, 1e9, 1.5, 312e12)).toThrow(/^numGpus must be an integer >= 1, got 1.5$/);
    expect(() => modelFlopsUtilization(1, 1e9, 8, Infinity)).toThrow(RangeError);
  });
});

describe("dataParallelCommTime", () => {
  const link = { alphaS: 0, bandwidthBytesPerS: 100e9 };
  const base = { zeroStage: 0 as const, shardParams: 1e9, dataParallel: 8, microBatches: 4, link, bytesPerElement: 2, backwardPerMicroBatchS: 0.02, busyPerMicroBatchS: 0.03 };
  const AR = (2 * (7 / 8) * 2e9) / 100e9, RS = ((7 / 8) * 2e9) / 100e9; // 35 ms and 17.5 ms
  it("worked example: DDP's all-reduce of 2·7/8·2 GB at 100 GB/s is 35 ms, 20 of them behind the last backward", () => {
    const r = dataParallelCommTime(base);
    expect(r.hiddenS).toBeCloseTo(0.02, 12);
    expect(r.exposedS).toBeCloseTo(0.015, 12);
  });
  it("stage 1 (DeepSpeed): the bucket all-reduce once, behind the last backward, then the parameter all-gather that nothing hides", () => {
    const r = dataParallelCommTime({ ...base, zeroStage: 1 });
    expect(r.hiddenS).toBeCloseTo(0.02, 12);
    expect(r.exposedS).toBeCloseTo(AR - 0.02 + RS, 12);
    expect(dataParallelCollectives({ ...base, zeroStage: 1 }).map((c) => c.kind)).toEqual(["ring-all-reduce", "all-gather"]);
  });
  it("stage 1 (Megatron's distributed optimizer): a reduce-scatter behind the last backward, the all-gather behind the next forward (--overlap-param-gather)", () => {
    const r = dataParallelCommTime({ ...base, zeroStage: 1, bucketAllReduce: false, overlapParamGather: true });
    // reduce-scatter 17.5 ms behind 20 ms of backward; all-gather 17.5 ms behind 10 ms of forward (busy − backward)
    expect(r.hiddenS).toBeCloseTo(RS + 0.01, 12);
    expect(r.exposedS).toBeCloseTo(RS - 0.01, 12);
  });
  it("stage 2: the reduction after every micro-batch (engine.py: stage ≥ 2 communicates at every micro-step), then the all-gather", () => {
    const r = dataParallelCommTime({ ...base, zeroStage: 2 });
    expect(r.hiddenS).toBeCloseTo(4 * 0.02, 12);
    expect(r.exposedS).toBeCloseTo(4 * (AR - 0.02) + RS, 12);
    const paper = dataParallelCommTime({ ...base, zeroStage: 2, bucketAllReduce: false }); // use_multi_rank_bucket_allreduce: false
    expect(paper.hiddenS + paper.exposedS).toBeCloseTo(4 * RS + RS, 12);
  });
  it("stage 3 moves 3Ψ per micro-batch against DDP's 2Ψ per step (ZeRO §7)", () => {
    const total = (z: 0 | 3, m: number) => { const r = dataParallelCommTime({ ...base, zeroStage: z, microBatches: m }); return r.hiddenS + r.exposedS; };
    expect(total(3, 1) / total(0, 1)).toBeCloseTo(1.5, 12);
    expect(total(3, 4) / total(3, 1)).toBeCloseTo(4, 12);
    expect(total(0, 4)).toBeCloseTo(total(0, 1), 12);
  });
  it("gradients reduced in fp32 (Megatron's bf16 default) double the reduction, not the parameter all-gather", () => {
    const r16 = dataParallelCommTime({ ...base, zeroStage: 1, overlapGradReduce: false }), r32 = dataParallelCommTime({ ...base, zeroStage: 1, overlapGradReduce: false, gradBytesPerElement: 4 });
    expect(r32.exposedS - r16.exposedS).toBeCloseTo(AR, 12);
  });
  it("property: hidden + exposed is the collectives' time, and hidden never exceeds the computation behind it", () => {
    fc.assert(fc.property(fc.constantFrom(0, 1, 2, 3), fc.integer({ min: 2, max: 64 }), fc.integer({ min: 1, max: 16 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean(), (z, d, m, bw, bucket) => {
      const o = { ...base, zeroStage: z as 0 | 1 | 2 | 3, dataParallel: d, microBatches: m, backwardPerMicroBatchS: bw, busyPerMicroBatchS: 1.5 * bw, bucketAllReduce: bucket };
      const r = dataParallelCommTime(o);
      const want = dataParallelCollectives(o).reduce((s, c) => s + c.timeS * c.timesPerStep, 0);
      expect(r.hiddenS + r.exposedS).toBeCloseTo(want, 9);
      const c = (k: "ring-all-reduce" | "reduce-scatter" | "all-gather") => collectiveCost(k, 1e9, d, link, 2).timeS;
      if (z === 0) expect(want).toBeCloseTo(c("ring-all-reduce"), 12);
      if (z === 3) expect(want).toBeCloseTo(m * (2 * c("all-gather") + c("reduce-scatter")), 9);
      expect(r.hiddenS).toBeLessThanOrEqual((z === 3 ? 1.5 * bw : bw) * (z === 2 || z === 3 ? m : 1) + 1e-12);
    }));
  });
  it("one rank communicates nothing; bad input names the field", () => {
    expect(dataParallelCommTime({ ...base, dataParallel: 1 })).toEqual({ exposedS: 0, hiddenS: 0 });
    expect(() => dataParallelCommTime({ ...base, microBatches: 0 })).toThrow(/^microBatches must be an integer >= 1, got 0$/);
    expect(() => dataParallelCommTime({ ...base, backwardPerMicroBatchS: -1 })).toThrow(/^backwardPerMicroBatchS must be a finite number >= 0, got -1$/);
    expect(() => dataParallelCommTime({ ...base, zeroStage: 4 as never })).toThrow(/^zeroStage must be 0, 1, 2 or 3, got 4$/);
  });
});

describe("rejectionReason", () => {
  const GiB = 2 ** 30;
  const mem = (over: Partial<MemoryEstimate["perGpu"]>, lines: { what: string; bytes: number }[] = [], cpu = 0): MemoryEstimate => {
    const perGpu = { parameters: 10 * GiB, gradients: 10 * GiB, optimizerStates: 10 * GiB, gradientBuckets: 0, activations: 10 * GiB, total: 0, ...over };
    perGpu.total = perGpu.parameters + perGpu.gradients + perGpu.optimizerStates + perGpu.gradientBuckets + perGpu.activations;
    const extra = lines.reduce((s, l) => s + l.bytes, 0);
    return { params: 1, perGpu, dataParallel: 1, paramsPerShard: 1, cpuBytesPerGpu: cpu, notes: [], peak: { total: perGpu.total + extra, lines: lines.map((l) => ({ ...l, name: "x", phase: "layer", source: "" })) } } as MemoryEstimate;
  };
  const c = clusterPreset("8x-a100-80gb");
  const plan = { pipelineParallel: 1, zeroStage: 1 as const };
  it("names the largest part, a transient line included, with sizes in GiB; the default headroom keeps 10 % free", () => {
    expect(rejectionReason(plan, mem({ activations: 40 * GiB }), c)).toBeUndefined(); // 70 GiB fits in 72
    expect(rejectionReason(plan, mem({ activations: 45 * GiB }), c)).toBe("needs 75.00 GiB > 72.00 GiB usable per GPU (80.00 GiB less 10 % headroom): largest part stored activations (45.00 GiB)");
    expect(rejectionReason(plan, mem({ activations: 45 * GiB }), c, 0)).toBeUndefined(); // 75 GiB fits in 80 with no headroom
    expect(rejectionReason(plan, mem({ activations: 55 * GiB }), c, 0)).toBe("needs 85.00 GiB > 80.00 GiB per GPU: largest part stored activations (55.00 GiB)");
    expect(rejectionReason(plan, mem({}, [{ what: "the layer being recomputed", bytes: 60 * GiB }]), c, 0)).toBe("needs 100.00 GiB > 80.00 GiB per GPU: largest part the layer being recomputed (60.00 GiB)");
    expect(reasonKind("needs 75.00 GiB > 72.00 GiB usable per GPU (80.00 GiB less 10 % headroom): largest part stored activations (45.00 GiB)")).toBe("needs more than 72.00 GiB per GPU; largest part: stored activations");
  });
  it("usableMemoryBytes: the GPU's memory less the headroom, which must be in [0, 1)", () => {
    expect(usableMemoryBytes(80 * GiB) / GiB).toBeCloseTo(72, 12);
    expect(DEFAULT_MEMORY_HEADROOM).toBe(0.1);
    expect(() => usableMemoryBytes(80 * GiB, 1)).toThrow(/^memoryHeadroom must be a number in \[0, 1\), got 1$/);
  });
  it("the framework rule comes first, then GPU memory, then host memory", () => {
    expect(rejectionReason({ pipelineParallel: 2, zeroStage: 3 }, mem({ activations: 55 * GiB }), c)).toMatch(/^ZeRO-3 with pipeline parallelism/);
    expect(rejectionReason(plan, mem({}, [], 300 * GiB), c)).toBe("offload needs 2400.00 GiB of host memory > 2048.00 GiB per node");
    expect(rejectionReason(plan, mem({}, [], 200 * GiB), c)).toBeUndefined();
    expect(rejectionReason({ pipelineParallel: 2, zeroStage: 1 }, mem({}), c)).toBeUndefined();
  });
});
