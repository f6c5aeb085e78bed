// Data loader (Node, build time): the plan page's fixed results, from lib/plan: the default search
// (the page recomputes it live when the reader changes the inputs), Narayanan et al. 2021 Table 1
// against the planner, llm-foundry's MPT-70B run, and note 004's runs against the planner's prediction.
import { parameterCount, parseModelConfig, type ModelArch } from "../../lib/memory/index.js";
import { loadPresetText } from "../../lib/memory/loadPresetText.js";
import { NOTES_RUNS, ddpBaseline } from "../../lib/notesBenchmark.js";
import { PLANNER_DEFAULTS, reasonKind, clusterPreset, evaluatePlan, gptArch, MEGATRON_TABLE_1, searchPlans, singleChanges, type Cluster, type Plan, type PlanResult } from "../../lib/plan/index.js";

const slim = (r: PlanResult) => ({
  label: r.label, plan: r.plan, fits: r.fits, reason: r.reason ?? null, tokensPerS: r.tokensPerS, mfu: r.mfu, costPerMillionTokens: r.costPerMillionTokens ?? null,
  time: r.time, memory: { perGpu: r.memory.perGpu, peak: r.memory.peak.total, lines: r.memory.peak.lines.map((l) => ({ name: l.name, what: l.what, bytes: l.bytes, phase: l.phase })), cpuBytesPerGpu: r.memory.cpuBytesPerGpu },
});

// 1. The page's default search (the planner's inputs start here), and the CLI's example, Llama-2-70B on 64 H100.
const DEFAULT = { ...PLANNER_DEFAULTS, price: PLANNER_DEFAULTS.pricePerGpuHour };
const arch70 = parseModelConfig(loadPresetText("llama-2-70b"));
const w = { globalBatch: DEFAULT.globalBatch, seqLen: DEFAULT.seqLen, precision: DEFAULT.precision, optimizer: "adamw" } as const;
const search = searchPlans(parseModelConfig(loadPresetText(DEFAULT.model)), clusterPreset(DEFAULT.cluster), w, {}, { pricePerGpuHour: DEFAULT.price, computeEfficiency: DEFAULT.efficiency });
const big = searchPlans(arch70, clusterPreset("64x-h100-80gb"), { globalBatch: 1024, seqLen: 4096, precision: "bf16", optimizer: "adamw" }, {}, { pricePerGpuHour: DEFAULT.price });

// 2. Table 1 of Narayanan et al. 2021: the published (t, p) among the planner's plans.
const table1 = MEGATRON_TABLE_1.map((row) => {
  const arch = gptArch({ hiddenSize: row.hiddenSize, numLayers: row.numLayers, numHeads: row.numHeads, vocabSize: 51200, seqLen: 2048 });
  const cluster: Cluster = { ...clusterPreset("1024x-a100-80gb"), nodes: row.gpus / 8 };
  const r = searchPlans(arch, cluster, { globalBatch: row.batch, seqLen: 2048, precision: "fp16", optimizer: "adamw" },
    { zeroStages: [0, 1], offloads: ["none"], recomputes: ["full"], attentions: ["eager"], sequenceParallel: [false], microBatches: [1, 2, 4, 8] });
  const pub = r.ranked.find((x) => x.plan.tensorParallel === row.tensorParallel && x.plan.pipelineParallel === row.pipelineParallel);
  const layouts = [...new Set(r.ranked.map((x) => `${x.plan.tensorParallel}/${x.plan.pipelineParallel}`))];
  const psi = parameterCount(arch).total;
  return {
    ...row, params: psi, searched: r.searched, fit: r.ranked.length, best: r.ranked[0].label, bestTokensPerS: r.ranked[0].tokensPerS,
    published: pub ? { label: pub.label, tokensPerS: pub.tokensPerS, teraflopsPerGpu: (8 * psi * pub.tokensPerS) / row.gpus / 1e12 } : null,
    layoutRank: layouts.indexOf(`${row.tensorParallel}/${row.pipelineParallel}`) + 1, layouts: layouts.length,
  };
});

// 3. llm-foundry's MPT-70B benchmark row (H100 80GB BF16 table).
const mpt: ModelArch = { ...gptArch({ hiddenSize: 8192, numLayers: 80, numHeads: 64, vocabSize: 50368, seqLen: 2048 }), learnedPositions: 0, attentionBias: false, mlpBias: false };
const mptPlan: Plan = { dataParallel: 64, tensorParallel: 1, pipelineParallel: 1, zeroStage: 3, offload: "none", recompute: "full", sequenceParallel: false, attention: "flash", microBatch: 8, gradAccum: 4 };
const mptRun = evaluatePlan(mpt, mptPlan, clusterPreset("64x-h100-80gb"), { globalBatch: 2048, seqLen: 2048, precision: "bf16", optimizer: "adamw" });

// 4. Note 004: eight GPUs (A100 80GB assumed, the notes do not say), per-device batch 8 × accumulation 8, sequence 2048,
// fp16, gradient checkpointing. The model is not given: a Llama-style 3.4B shape (OpenLLaMA 3B: h 3200, 26 layers, 32 heads),
// the size the measured DDP baseline implies at the planner's assumed efficiency.
const notesArch: ModelArch = { family: "llama", modelType: "llama", vocabSize: 32000, hiddenSize: 3200, intermediateSize: 8640, numLayers: 26, numHeads: 32, numKvHeads: 32, headDim: 100, learnedPositions: 0, tiedEmbeddings: false, attentionBias: false, mlpBias: false, norm: "rmsnorm", mlp: "gated" };
const notesCluster = clusterPreset("8x-a100-80gb");
const hf = { dataParallel: 8, tensorParallel: 1, pipelineParallel: 1, offload: "none", recompute: "full", sequenceParallel: false, microBatch: 8, gradAccum: 8 } as const;
const notesPlans: Record<string, Plan> = {
  "DDP (baseline, derived)": { ...hf, zeroStage: 0, attention: "eager" },
  "DeepSpeed ZeRO-2": { ...hf, zeroStage: 2, attention: "eager" },
  "DeepSpeed ZeRO-3": { ...hf, zeroStage: 3, attention: "eager" },
  "DeepSpeed ZeRO-3 + offload": { ...hf, zeroStage: 3, offload: "optimizer+params", attention: "eager" },
  "FlashAttention (DDP)": { ...hf, zeroStage: 0, attention: "flash" },
  "FlashAttention + FSDP": { ...hf, zeroStage: 3, attention: "flash" },
  "FlashAttention + DeepSpeed": { ...hf, zeroStage: 2, attention: "flash" },
};
const notesW = { globalBatch: 8 * 8 * 8, seqLen: 2048, precision: "fp16", optimizer: "adamw" } as const;
const baseline = ddpBaseline();
const notes = Object.entries(notesPlans).map(([run, plan]) => {
  const r = evaluatePlan(notesArch, plan, notesCluster, notesW);
  const measured = run.startsWith("DDP") ? baseline : NOTES_RUNS.find((x) => x.run === run)!.samplesPerSecond;
  return { run, label: r.label, fits: r.fits, predicted: r.tokensPerS / notesW.seqLen, measured, time: r.time, peak: r.memory.peak.total };
});

process.stdout.write(JSON.stringify({
  default: { ...DEFAULT, searched: search.searched, fit: search.ranked.length, ranked: search.ranked.slice(0, 12).map(slim), rejected: search.rejected.slice(0, 6).map(slim),
    rejectedReasons: Object.entries(search.rejected.reduce<Record<string, number>>((acc, x) => { const k = reasonKind(x.reason!); acc[k] = (acc[k] ?? 0) + 1; return acc; }, {})).sort((a, b) => b[1] - a[1]) },
  big: { searched: big.searched, fit: big.ranked.length, ranked: big.ranked.slice(0, 5).map(slim) },
  table1,
  mpt: { params: parameterCount(mpt).total, plan: mptRun.label, fits: mptRun.fits, tokensPerS: mptRun.tokensPerS, mfu: mptRun.mfu, peak: mptRun.memory.peak.total, measuredTokensPerS: 66523, measuredMfu: 0.4257 },
  notes: { params: parameterCount(notesArch).total, baseline, runs: notes },
  nothingFits: (() => {
    const a100 = clusterPreset("8x-a100-80gb");
    const wf = { globalBatch: 64, seqLen: 4096, precision: "bf16", optimizer: "adamw" } as const;
    // FSDP FULL_SHARD (ZeRO-3) on one node, no offload, no tensor or pipeline parallelism: what one change would make it fit?
    const r = searchPlans(arch70, a100, wf, { offloads: ["none"], microBatches: [1], zeroStages: [3], tensorParallel: [1], pipelineParallel: [1], recomputes: ["full"], attentions: ["flash"] });
    const closest = r.rejected.find((x) => x.overBytes > 0)!;
    return { fit: r.ranked.length, closest: slim(closest), changes: singleChanges(arch70, closest.plan, a100, wf).map((c) => ({ change: c.change, fits: c.result.fits, reason: c.result.reason ?? null, tokensPerS: c.result.tokensPerS })) };
  })(),
}));
