// Data loader (Node, build time): the plan page's fixed results, from lib/plan: the default search
// (the page recomputes it live when the reader changes the inputs), the CLI's example, Narayanan et al. 2021
// Table 1 against the planner, three more published runs (BLOOM, MPT-70B, Llama 3 405B), and note 004's runs.
import { parameterCount, parseModelConfig, type ModelArch } from "../../lib/memory/index.js";
import { loadPresetText } from "../../lib/memory/loadPresetText.js";
import { NOTES_RUNS, ddpBaseline } from "../../lib/notesBenchmark.js";
import { palmFlopsPerToken } from "../../lib/perf/index.js";
import {
  PLANNER_DEFAULTS, reasonKind, clusterPreset, compareTable1Row, evaluatePlan, MEGATRON_TABLE_1, PUBLISHED_RUNS, predictPublishedRun,
  searchPlans, singleChanges, stepTime, type Plan, type PlanResult,
} from "../../lib/plan/index.js";

const slim = (r: PlanResult) => ({
  label: r.label, plan: r.plan, fits: r.fits, reason: r.reason ?? null, tokensPerS: r.tokensPerS, mfu: r.mfu, costPerMillionTokens: r.costPerMillionTokens ?? null,
  time: r.time, memory: { perGpu: r.memory.perGpu, peak: r.memory.peak.total, lines: r.memory.peak.lines.map((l) => ({ name: l.name, what: l.what, bytes: l.bytes, phase: l.phase })), cpuBytesPerGpu: r.memory.cpuBytesPerGpu },
});

// 1. The page's default search (the planner's inputs start here), and the CLI's example, Llama-2-70B on 64 H100.
const DEFAULT = { ...PLANNER_DEFAULTS, price: PLANNER_DEFAULTS.pricePerGpuHour };
const arch7 = parseModelConfig(loadPresetText(DEFAULT.model));
const arch70 = parseModelConfig(loadPresetText("llama-2-70b"));
const w = { globalBatch: DEFAULT.globalBatch, seqLen: DEFAULT.seqLen, precision: DEFAULT.precision, optimizer: "adamw" } as const;
const search = searchPlans(arch7, clusterPreset(DEFAULT.cluster), w, {}, { pricePerGpuHour: DEFAULT.price, memoryHeadroom: DEFAULT.headroom });
const bigW = { globalBatch: 1024, seqLen: 4096, precision: "bf16", optimizer: "adamw" } as const;
const big = searchPlans(arch70, clusterPreset("64x-h100-80gb"), bigW, {}, { pricePerGpuHour: DEFAULT.price });

// Micro-batch and attention now matter: the best plan's neighbours with b halved and with eager attention.
const best7 = search.ranked[0];
const variant = (p: Plan) => { const r = evaluatePlan(arch7, p, clusterPreset(DEFAULT.cluster), w); return { label: r.label, fits: r.fits, tokensPerS: r.tokensPerS, attentionS: r.time.breakdown.attentionS }; };
const neighbours = {
  best: variant(best7.plan),
  eager: variant({ ...best7.plan, attention: "eager" }),
  halfMicroBatch: best7.plan.microBatch % 2 === 0 ? variant({ ...best7.plan, microBatch: best7.plan.microBatch / 2, gradAccum: best7.plan.gradAccum * 2 }) : null,
};

// 2. Table 1 of Narayanan et al. 2021: the published (t, p) among the planner's layouts.
const table1 = MEGATRON_TABLE_1.map((row) => ({ ...row, ...compareTable1Row(row) }));

// 3. Three more published runs, replayed.
const published = PUBLISHED_RUNS.map((r) => ({ id: r.id, name: r.name, metric: r.published.metric, source: r.source, assumptions: r.assumptions, label: `dp${r.plan.dataParallel} tp${r.plan.tensorParallel} pp${r.plan.pipelineParallel}`, gpu: r.cluster.gpu.name, gpus: r.plan.dataParallel * r.plan.tensorParallel * r.plan.pipelineParallel, ...predictPublishedRun(r) }));
// Llama 3 with V = 1, 2, 4, 8 chunks per pipeline rank (the paper does not print V).
const llama3 = PUBLISHED_RUNS.find((r) => r.id === "llama3-405b")!;
const llama3ByV = [1, 2, 4, 8].map((v) => ({ v, mfu: predictPublishedRun({ ...llama3, runtime: { ...llama3.runtime, virtualStages: v } }).mfu }));
// MPT-70B's step by cause: the communication model, not a constant, sets its prediction.
const mpt = PUBLISHED_RUNS.find((r) => r.id === "mpt-70b")!;
const mptTime = stepTime(mpt.arch, mpt.plan, mpt.cluster, mpt.workload, { runtime: mpt.runtime });
// The same run with one network adapter per ring (the old rule): 8 times less bandwidth between nodes for its 8-per-node ring.
const mptOne = stepTime(mpt.arch, mpt.plan, { ...mpt.cluster, interNode: { ...mpt.cluster.interNode, bandwidthBytesPerS: mpt.cluster.interNode.bandwidthBytesPerS / 8 } }, mpt.workload, { runtime: mpt.runtime });
const mptOneAdapter = { dataParallelExposedS: mptOne.dataParallelExposedS, ratio: (mpt.workload.globalBatch * mpt.workload.seqLen / mptOne.totalS) / mpt.published.value };
const mptSixPsiMfu = (6 * parameterCount(mpt.arch).total * 66523) / (64 * mpt.cluster.gpu.peakFlops16);
const mptPalmMfu = (palmFlopsPerToken(mpt.arch, 2048) * 66523) / (64 * mpt.cluster.gpu.peakFlops16);

// 4. Note 004: eight GPUs (A100 80GB assumed, the notes do not say), per-device batch 8 × accumulation 8, sequence 2048,
// fp16, gradient checkpointing. The model is not given: a Llama-style 3.4B shape (OpenLLaMA 3B: h 3200, 26 layers, 32 heads).
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
    rejectedReasons: Object.entries(search.rejected.reduce<Record<string, number>>((acc, x) => { const k = reasonKind(x.reason!); acc[k] = (acc[k] ?? 0) + 1; return acc; }, {})).sort((a, b) => b[1] - a[1]),
    pipelineRuleRejections: search.rejected.filter((x) => x.reason!.includes("pipeline engine")).length, neighbours },
  big: { searched: big.searched, fit: big.ranked.length, ranked: big.ranked.slice(0, 5).map(slim) },
  table1,
  published, llama3ByV,
  mpt: { time: mptTime, oneAdapter: mptOneAdapter, sixPsiMfu: mptSixPsiMfu, palmMfu: mptPalmMfu, measuredTokensPerS: 66523, measuredMfu: 0.4257, params: parameterCount(mpt.arch).total },
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
