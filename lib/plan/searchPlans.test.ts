import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parameterCount, parseModelConfig } from "../memory/index.js";
import { loadPresetText } from "../memory/loadPresetText.js";
import { clusterPreset, evaluatePlan, gptArch, MEGATRON_TABLE_1, searchPlans, singleChanges, type Cluster, type Plan, type Workload } from "./index.js";

const llama70b = parseModelConfig(loadPresetText("llama-2-70b"));
const a100x8 = clusterPreset("8x-a100-80gb");
const w70: Workload = { globalBatch: 64, seqLen: 4096, precision: "bf16", optimizer: "adamw" };
const plan70: Plan = { dataParallel: 1, tensorParallel: 8, pipelineParallel: 1, zeroStage: 0, offload: "none", recompute: "full", sequenceParallel: true, attention: "flash", microBatch: 1, gradAccum: 64 };

describe("evaluatePlan", () => {
  it("rejects a plan over memory and names its largest part: Llama-2-70B, ZeRO-0 on one node (16 bytes per parameter / 8)", () => {
    const r = evaluatePlan(llama70b, plan70, a100x8, w70);
    expect(r.fits).toBe(false);
    // 69 billion parameters × (2 + 2 + 12) bytes / 8 GPUs ≈ 128 GiB of model states alone.
    expect(r.reason).toMatch(/^needs 1\d\d\.\d\d GiB > 80\.00 GiB per GPU: largest part optimizer states \(9\d\.\d\d GiB\)$/);
    expect(r.overBytes).toBe(r.memory.peak.total - 80 * 2 ** 30);
  });
  it("rejects ZeRO-2/3 with pipeline parallelism, as DeepSpeed's pipeline engine does", () => {
    const r = evaluatePlan(llama70b, { ...plan70, tensorParallel: 4, pipelineParallel: 2, zeroStage: 2 }, a100x8, w70);
    expect(r.reason).toMatch(/ZeRO-2 with pipeline parallelism/);
  });
  it("rejects offload that the host memory cannot hold", () => {
    const small: Cluster = { ...a100x8, cpuMemoryBytesPerNode: 2 ** 30 };
    const r = evaluatePlan(llama70b, { ...plan70, dataParallel: 8, tensorParallel: 1, gradAccum: 8, zeroStage: 3, offload: "optimizer+params", sequenceParallel: false }, small, w70);
    expect(r.reason).toMatch(/^offload needs \d+\.\d\d GiB of host memory > 1\.00 GiB per node$/);
  });
  it("MFU, tokens per second and cost follow from the step time", () => {
    const r = evaluatePlan(llama70b, { ...plan70, dataParallel: 8, tensorParallel: 1, gradAccum: 8, zeroStage: 3, sequenceParallel: false }, a100x8, w70, { pricePerGpuHour: 2 });
    const tokens = 64 * 4096;
    expect(r.tokensPerS).toBeCloseTo(tokens / r.time.totalS, 6);
    expect(r.mfu).toBeCloseTo((6 * parameterCount(llama70b).total * r.tokensPerS) / (8 * 312e12), 12);
    expect(r.costPerMillionTokens).toBeCloseTo(((8 * 2) / 3600) * r.time.totalS * (1e6 / tokens), 9);
    expect(() => evaluatePlan(llama70b, plan70, a100x8, w70, { pricePerGpuHour: -1 })).toThrow(/pricePerGpuHour must be a finite number >= 0, got -1/);
  });
});

describe("searchPlans", () => {
  const r = searchPlans(llama70b, a100x8, w70, { microBatches: [1, 2] });
  it("ranks the plans that fit by throughput and keeps every other with a reason", () => {
    expect(r.ranked.length + r.rejected.length).toBe(r.searched);
    expect(r.ranked.length).toBeGreaterThan(0);
    for (let i = 1; i < r.ranked.length; i++) expect(r.ranked[i - 1].tokensPerS).toBeGreaterThanOrEqual(r.ranked[i].tokensPerS);
    expect(r.ranked.every((x) => x.fits && x.memory.peak.total <= 80 * 2 ** 30)).toBe(true);
    expect(r.rejected.every((x) => !x.fits && typeof x.reason === "string")).toBe(true);
  });
  it("\"no offload\" as a constraint: 70B on 8 × 80 GB needs ZeRO-3 or more GPUs, and the sensitivity view says which single change fits", () => {
    const none = searchPlans(llama70b, a100x8, w70, { offloads: ["none"], microBatches: [1] });
    expect(none.ranked.every((x) => x.plan.offload === "none")).toBe(true);
    expect(none.ranked.every((x) => x.plan.zeroStage === 3 || x.plan.tensorParallel * x.plan.pipelineParallel > 1)).toBe(true);
    const worst = none.rejected.find((x) => x.plan.zeroStage === 2 && x.plan.dataParallel === 8)!;
    const changes = singleChanges(llama70b, worst.plan, a100x8, w70);
    expect(changes.find((c) => c.change === "ZeRO stage 2 → 3")!.result.overBytes).toBeLessThan(worst.overBytes);
    // Fitting changes come first.
    const firstMiss = changes.findIndex((c) => !c.result.fits);
    expect(changes.slice(firstMiss).every((c) => !c.result.fits)).toBe(true);
  });
});

describe("the planner against published runs", () => {
  // Narayanan et al. 2021, Table 1: GPT models on Selene (A100 80GB, DGX A100 nodes), sequence 2048, vocabulary 51,200,
  // activation recomputation; Megatron-LM has no ZeRO beyond its distributed optimizer (≈ stage 1).
  for (const row of MEGATRON_TABLE_1) {
    it(`${row.paramsBillions}B on ${row.gpus} GPUs: the published t = ${row.tensorParallel}, p = ${row.pipelineParallel} fits, is within 20 % of the best plan, and its TFLOP/s within 1.5× of ${row.teraflopsPerGpu}`, () => {
      const arch = gptArch({ hiddenSize: row.hiddenSize, numLayers: row.numLayers, numHeads: row.numHeads, vocabSize: 51200, seqLen: 2048 });
      expect(parameterCount(arch).total / 1e9).toBeCloseTo(row.paramsBillions, 1); // the paper's own count
      const cluster: Cluster = { ...clusterPreset("1024x-a100-80gb"), nodes: row.gpus / 8 };
      const r = searchPlans(arch, cluster, { globalBatch: row.batch, seqLen: 2048, precision: "fp16", optimizer: "adamw" },
        { zeroStages: [0, 1], offloads: ["none"], recomputes: ["full"], attentions: ["eager"], sequenceParallel: [false], microBatches: [1, 2, 4, 8] });
      const pub = r.ranked.find((x) => x.plan.tensorParallel === row.tensorParallel && x.plan.pipelineParallel === row.pipelineParallel);
      expect(pub, "the published layout fits").toBeDefined();
      expect(pub!.tokensPerS / r.ranked[0].tokensPerS).toBeGreaterThanOrEqual(0.8);
      const teraflops = (8 * parameterCount(arch).total * pub!.tokensPerS) / row.gpus / 1e12; // their Eq. 3 counts the recomputed forward
      expect(teraflops / row.teraflopsPerGpu).toBeGreaterThan(1 / 1.5);
      expect(teraflops / row.teraflopsPerGpu).toBeLessThan(1.5);
    });
  }
  it("MPT-70B on 64 H100 80GB (llm-foundry's benchmark: FSDP FULL_SHARD, checkpointing, b = 8 × 4, 66,523 tokens/s) fits and is predicted within 1.5×", () => {
    // mpt-70b.yaml: d_model 8192, 64 heads, 80 layers, expansion 4, vocabulary 50,368, ALiBi (no position table), no biases.
    const mpt = { ...gptArch({ hiddenSize: 8192, numLayers: 80, numHeads: 64, vocabSize: 50368, seqLen: 2048 }), learnedPositions: 0, attentionBias: false, mlpBias: false };
    const r = evaluatePlan(mpt, { dataParallel: 64, tensorParallel: 1, pipelineParallel: 1, zeroStage: 3, offload: "none", recompute: "full", sequenceParallel: false, attention: "flash", microBatch: 8, gradAccum: 4 },
      clusterPreset("64x-h100-80gb"), { globalBatch: 2048, seqLen: 2048, precision: "bf16", optimizer: "adamw" });
    expect(r.fits).toBe(true);
    expect(r.tokensPerS / 66523).toBeGreaterThan(1 / 1.5);
    expect(r.tokensPerS / 66523).toBeLessThan(1.5);
  });
});

describe("properties of the memory side (chapter 2's estimate, as the planner uses it)", () => {
  const arch = gptArch({ hiddenSize: 2048, numLayers: 24, numHeads: 16, vocabSize: 50257, seqLen: 2048 });
  const c = clusterPreset("64x-h100-80gb");
  const w: Workload = { globalBatch: 256, seqLen: 2048, precision: "bf16", optimizer: "adamw" };
  const planArb = fc.record({
    t: fc.constantFrom(1, 2, 4, 8), p: fc.constantFrom(1, 2, 4), z: fc.constantFrom(0, 1, 2, 3), b: fc.constantFrom(2, 4, 8),
    r: fc.constantFrom("none", "selective", "full"), a: fc.constantFrom("eager", "flash"),
  }).map(({ t, p, z, b, r, a }): Plan => {
    const d = 64 / (t * p);
    return { dataParallel: d, tensorParallel: t, pipelineParallel: p, zeroStage: z as Plan["zeroStage"], offload: "none", recompute: r as Plan["recompute"], sequenceParallel: false, attention: a as Plan["attention"], microBatch: b, gradAccum: 256 / (b * d) };
  });
  const mem = (pl: Plan) => evaluatePlan(arch, pl, c, w).memory;
  const wellFormed = (pl: Plan) => Number.isInteger(pl.gradAccum) && pl.gradAccum >= 1;
  it("a smaller micro-batch never needs more memory (so a plan that fits still fits)", () => {
    fc.assert(fc.property(planArb, (pl) => {
      fc.pre(wellFormed(pl));
      expect(mem({ ...pl, microBatch: pl.microBatch / 2, gradAccum: pl.gradAccum * 2 }).peak.total).toBeLessThanOrEqual(mem(pl).peak.total);
    }), { numRuns: 60 });
  });
  it("the steady state never grows with the ZeRO stage, the TP size (at a fixed count of micro-batches in flight) or recomputation", () => {
    fc.assert(fc.property(planArb, (pl) => {
      fc.pre(wellFormed(pl));
      const m = mem(pl).perGpu.total;
      if (pl.zeroStage < 3) expect(mem({ ...pl, zeroStage: (pl.zeroStage + 1) as Plan["zeroStage"] }).perGpu.total).toBeLessThanOrEqual(m);
      // Twice t halves d, so each replica runs twice the micro-batches; with m < p that puts more of them in flight
      // on the first stage (min(m, p)): the comparison holds the in-flight count fixed.
      const inFlightFixed = pl.pipelineParallel === 1 || pl.gradAccum >= pl.pipelineParallel;
      if (pl.tensorParallel < 8 && inFlightFixed) {
        const t2 = { ...pl, tensorParallel: pl.tensorParallel * 2, dataParallel: pl.dataParallel / 2, gradAccum: pl.gradAccum * 2 };
        if (Number.isInteger(t2.dataParallel) && Number.isInteger(t2.gradAccum)) expect(mem(t2).perGpu.total).toBeLessThanOrEqual(m);
      }
      if (pl.recompute !== "full") expect(mem({ ...pl, recompute: "full" }).perGpu.total).toBeLessThanOrEqual(m);
    }), { numRuns: 80 });
  });
  it("the peak never grows with the TP size (in flight fixed) or with recomputation; ZeRO-3 may add its gathered layer to the peak, never more", () => {
    fc.assert(fc.property(planArb, (pl) => {
      fc.pre(wellFormed(pl));
      const m = mem(pl);
      if (pl.recompute !== "full") expect(mem({ ...pl, recompute: "full" }).peak.total).toBeLessThanOrEqual(m.peak.total);
      const t2 = { ...pl, tensorParallel: pl.tensorParallel * 2, dataParallel: pl.dataParallel / 2, gradAccum: pl.gradAccum * 2 };
      if (pl.tensorParallel < 8 && Number.isInteger(t2.dataParallel) && (pl.pipelineParallel === 1 || pl.gradAccum >= pl.pipelineParallel)) expect(mem(t2).peak.total).toBeLessThanOrEqual(m.peak.total);
      if (pl.zeroStage === 2) {
        const z3 = mem({ ...pl, zeroStage: 3 });
        const gathered = z3.peak.lines.filter((l) => !m.peak.lines.some((x) => x.name === l.name)).reduce((s, l) => s + l.bytes, 0);
        expect(z3.peak.total).toBeLessThanOrEqual(m.peak.total + gathered);
      }
    }), { numRuns: 80 });
  });
});
