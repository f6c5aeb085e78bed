import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { achievedLink, collectiveCost, NCCL_BUS_EFFICIENCY } from "../collectives/index.js";
import { parameterCount, parseModelConfig } from "../memory/index.js";
import { loadPresetText } from "../memory/loadPresetText.js";
import { transformerLayerTime } from "../perf/index.js";
import { clusterOf, clusterPreset, enumeratePlans, gptArch, gpuRoofline, layerShape, microBatchTime, stepTime, type Plan, type Workload } from "./index.js";

const arch = gptArch({ hiddenSize: 4096, numLayers: 32, numHeads: 32, vocabSize: 51200, seqLen: 2048 });
const w: Workload = { globalBatch: 64, seqLen: 2048, precision: "bf16", optimizer: "adamw" };
const base: Plan = { dataParallel: 1, tensorParallel: 1, pipelineParallel: 1, zeroStage: 0, offload: "none", recompute: "none", sequenceParallel: false, attention: "flash", microBatch: 4, gradAccum: 16 };
const oneGpu = { ...clusterPreset("8x-a100-80gb"), gpusPerNode: 1 };
const a100 = clusterPreset("8x-a100-80gb");
const EXPOSED = ["computeS", "recomputeS", "tpCommS", "pipelineBubbleS", "pipelineSendS", "dataParallelExposedS", "overlapSlowdownS", "optimizerS", "offloadExposedS", "contextParallelCommS", "expertParallelCommS"] as const;
const roof = gpuRoofline(a100.gpu, "bf16");

describe("stepTime", () => {
  it("worked example, one GPU: m micro-batches of 32 layers on the roofline, plus the Adam step over HBM, nothing else", () => {
    const t = stepTime(arch, base, oneGpu, w);
    const layer = transformerLayerTime(layerShape(arch), { microBatch: 4, seqLen: 2048, tensorParallel: 1, sequenceParallel: false, attention: "flash", bytesPerElement: 2 }, roof);
    expect(t.computeS).toBeGreaterThan(16 * 32 * (layer.forward.totalS + layer.backward.totalS)); // plus the embedding and the logits
    expect(t.optimizerS).toBeCloseTo((parameterCount(arch).total * 28) / roof.hbmBytesPerS, 12);
    expect(t.totalS).toBeCloseTo(t.computeS + t.optimizerS, 12);
    for (const k of ["recomputeS", "tpCommS", "pipelineBubbleS", "pipelineSendS", "dataParallelExposedS", "offloadExposedS"] as const) expect(t[k]).toBe(0);
    // The GEMMs dominate: about 6Ψ per token at 87 % of 312 TFLOP/s, attention and elementwise kernels the rest.
    expect(t.breakdown.gemmS).toBeGreaterThan(0.75 * t.computeS);
  });
  it("full recomputation adds one forward of every layer; selective adds eager attention's core only", () => {
    const full = stepTime(arch, { ...base, recompute: "full" }, oneGpu, w);
    const layer = transformerLayerTime(layerShape(arch), { microBatch: 4, seqLen: 2048, tensorParallel: 1, sequenceParallel: false, attention: "flash", bytesPerElement: 2 }, roof);
    expect(full.recomputeS).toBeCloseTo(16 * 32 * layer.forward.totalS, 12);
    expect(stepTime(arch, { ...base, recompute: "selective" }, oneGpu, w).recomputeS).toBe(0); // FlashAttention leaves nothing to recompute
    expect(stepTime(arch, { ...base, recompute: "selective", attention: "eager" }, oneGpu, w).recomputeS).toBeGreaterThan(0);
  });
  it("eager attention at s = 4096 is slower than FlashAttention (its s × s scores go through HBM), so they no longer tie", () => {
    const w4 = { ...w, seqLen: 4096 };
    const llama7 = parseModelConfig(loadPresetText("llama-2-7b"));
    const eager = stepTime(llama7, { ...base, attention: "eager", microBatch: 1, gradAccum: 64 }, oneGpu, w4);
    const flash = stepTime(llama7, { ...base, microBatch: 1, gradAccum: 64 }, oneGpu, w4);
    expect(eager.breakdown.attentionS).toBeGreaterThan(1.5 * flash.breakdown.attentionS);
    expect(eager.totalS).toBeGreaterThan(flash.totalS);
  });
  it("DDP on 8 GPUs: one ring all-reduce of the bf16 gradients at NCCL's NVLink efficiency, hidden behind the last micro-batch's backward", () => {
    const plan = { ...base, dataParallel: 8, gradAccum: 2 };
    const t = stepTime(arch, plan, a100, w);
    const ar = collectiveCost("ring-all-reduce", parameterCount(arch).total, 8, achievedLink(a100.intraNode, NCCL_BUS_EFFICIENCY.nvlink), 2).timeS;
    expect(t.dataParallelHiddenS + t.dataParallelExposedS).toBeCloseTo(ar, 12);
    // Hidden is not free: while it runs, the collective holds 20 of the A100's 108 SMs (DeepSeek-V3's figure).
    expect(t.overlapSlowdownS).toBeCloseTo((t.dataParallelHiddenS * 20) / 108, 12);
  });
  it("across nodes the data-parallel ring uses one adapter per member in each node: 8 members of a 16-GPU group go 8× faster than 1 would", () => {
    const c = clusterOf("a100-80gb", 8, 2, "net-200g", 2 ** 41);
    const plan = { ...base, dataParallel: 16, gradAccum: 1, microBatch: 4 };
    const t = stepTime(arch, plan, c, w, { runtime: { overlapGradReduce: false } });
    const link = { alphaS: 5e-6, bandwidthBytesPerS: Math.min(300e9 * 0.8, 8 * 25e9 * 0.96) };
    expect(t.dataParallelExposedS).toBeCloseTo(collectiveCost("ring-all-reduce", parameterCount(arch).total, 16, link, 2).timeS, 12);
  });
  it("ZeRO-3 moves 1.5× the bytes of DDP per micro-batch (ZeRO §7: 3Ψ against 2Ψ)", () => {
    const c = clusterPreset("64x-h100-80gb");
    const p0 = { ...base, dataParallel: 64, gradAccum: 1, microBatch: 1 };
    const comm = (z: 0 | 3) => { const t = stepTime(arch, { ...p0, zeroStage: z }, c, w); return t.dataParallelExposedS + t.dataParallelHiddenS; };
    expect(comm(3) / comm(0)).toBeCloseTo(1.5, 2);
  });
  it("tensor parallelism: the backward all-reduce hides behind the weight-gradient GEMM; without that overlap (Megatron before 2021-08) all four collectives are exposed", () => {
    const p = { ...base, tensorParallel: 8, gradAccum: 16 };
    const overlapped = stepTime(arch, p, a100, w), serial = stepTime(arch, p, a100, w, { runtime: { tpBackwardOverlap: false } });
    expect(overlapped.tpCommHiddenS).toBeGreaterThan(0);
    expect(serial.tpCommHiddenS).toBe(0);
    expect(overlapped.tpCommS + overlapped.tpCommHiddenS).toBeCloseTo(serial.tpCommS, 12);
    // Forward: two all-reduces per layer; with full recomputation they run twice (2 + 2 + 2 backward = 6 against 4).
    const recomputed = stepTime(arch, { ...p, recompute: "full" }, a100, w, { runtime: { tpBackwardOverlap: false } });
    expect(recomputed.tpCommS / serial.tpCommS).toBeCloseTo(1.5, 12);
    // --tp-comm-overlap hides the forward ones behind the GEMMs next to them.
    expect(stepTime(arch, p, a100, w, { runtime: { tpCommOverlap: true } }).tpCommS).toBeLessThan(overlapped.tpCommS);
  });
  it("the 1F1B bubble is (p − 1)/v micro-batch times; Megatron's blocking sends cost two boundary messages per micro-batch", () => {
    const p = { ...base, pipelineParallel: 8, gradAccum: 16 };
    const t = stepTime(arch, p, a100, w);
    expect(t.pipelineBubbleS / ((t.computeS + t.recomputeS + t.tpCommS) / 16)).toBeCloseTo(7, 9);
    const v2 = stepTime(arch, p, a100, w, { runtime: { virtualStages: 2 } });
    expect(v2.pipelineBubbleS).toBeCloseTo(t.pipelineBubbleS / 2, 12);
    expect(v2.pipelineSendS).toBeLessThan(t.pipelineSendS);
    expect(() => stepTime(arch, p, a100, w, { runtime: { virtualStages: 3 } })).toThrow(/^runtime.virtualStages must be an integer >= 1 dividing the stage's layers, got 3$/);
  });
  it("Megatron's pipeline scatter/gather sends 1/t of the boundary tensor per rank over its own adapter", () => {
    const c = clusterPreset("64x-h100-80gb");
    const p = { ...base, tensorParallel: 8, pipelineParallel: 8, dataParallel: 1, gradAccum: 64, microBatch: 1 };
    const on = stepTime(arch, p, c, w), off = stepTime(arch, p, c, w, { runtime: { scatterGather: false } });
    // 1/8 of the bytes on the network, then an all-gather over NVLink (whose seven α steps keep the gain below 8×).
    expect(on.pipelineSendS).toBeLessThan(off.pipelineSendS / 2);
  });
  it("Megatron reduces bf16 gradients in fp32 by default: its data-parallel all-reduce moves twice the bytes", () => {
    const p = { ...base, tensorParallel: 2, dataParallel: 4, gradAccum: 4 };
    const comm = (o: object) => { const t = stepTime(arch, p, a100, w, { runtime: o }); return t.dataParallelExposedS + t.dataParallelHiddenS; };
    expect(comm({}) / comm({ gradReduceInBf16: true })).toBeCloseTo(2, 2); // the α terms do not double
  });
  it("published figure: on one GPU a micro-batch of 16 trains the 4-layer GPT of Narayanan et al.'s Fig. 7 faster than a micro-batch of 1 (the paper: up to 1.3×)", () => {
    const fig7 = gptArch({ hiddenSize: 4096, numLayers: 4, numHeads: 128, vocabSize: 51200, seqLen: 2048 });
    const rate = (b: number) => (b * 2048) / stepTime(fig7, { ...base, recompute: "full", attention: "eager", microBatch: b, gradAccum: 1 }, oneGpu, { ...w, globalBatch: b, precision: "fp16" }).totalS;
    expect(rate(16) / rate(1)).toBeGreaterThan(1.05);
    expect(rate(16) / rate(1)).toBeLessThan(1.3);
  });
  it("property: the total is the sum of the exposed terms, every term finite and ≥ 0 (no byte counted twice or lost)", () => {
    const c = clusterPreset("64x-h100-80gb");
    const plans = enumeratePlans(arch, c, w, { microBatches: [1, 2] });
    fc.assert(fc.property(fc.integer({ min: 0, max: plans.length - 1 }), (i) => {
      const t = stepTime(arch, plans[i], c, w);
      expect(t.totalS).toBeCloseTo(EXPOSED.reduce((s, k) => s + t[k], 0), 9);
      for (const k of [...EXPOSED, "dataParallelHiddenS", "offloadHiddenS", "tpCommHiddenS", "contextParallelHiddenS"] as const) expect(Number.isFinite(t[k]) && t[k] >= 0, k).toBe(true);
      expect(t.overlapSlowdownS).toBeCloseTo(((t.dataParallelHiddenS + t.contextParallelHiddenS) * 20) / c.gpu.numSMs, 12);
    }), { numRuns: 200 });
  });
  it("bad assumptions name the option", () => {
    expect(() => stepTime(arch, base, oneGpu, w, { cpuAdamParamsPerS: -1 })).toThrow(/cpuAdamParamsPerS must be a finite number > 0, got -1/);
  });
});

describe("microBatchTime", () => {
  it("balanced edge stages (one layer fewer on the first and last): the busiest stage holds ⌈(L + 2)/p⌉ layers", () => {
    const plan = { ...base, pipelineParallel: 4, gradAccum: 16, microBatch: 1 };
    const link = { alphaS: 5e-6, bandwidthBytesPerS: 240e9 };
    const rt = { tpBackwardOverlap: true, tpCommOverlap: false };
    const plain = microBatchTime(arch, plan, 2048, roof, link, rt, { bytesPerElement: 2 });
    const balanced = microBatchTime(arch, plan, 2048, roof, link, { ...rt, balanceEdgeStages: true }, { bytesPerElement: 2 });
    expect(balanced.breakdown.gemmS / plain.breakdown.gemmS).toBeCloseTo(Math.ceil(34 / 4) / (32 / 4), 12);
  });
});
