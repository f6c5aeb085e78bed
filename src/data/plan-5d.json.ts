// Data loader (Node, build time): the plan page's section on five dimensions, from lib/plan: the best plan at each
// expert-parallel size for Mixtral-8x7B on 64 H100, at each context-parallel size for Llama-3.1-70B at 131,072 tokens
// on 512 H100 (the repository's config.json), and the two published 5D runs (DeepSeek-V3, Llama 3 405B's 128K stage).
import { readFileSync } from "node:fs";
import { parseModelConfig } from "../../lib/memory/index.js";
import { loadPresetText } from "../../lib/memory/loadPresetText.js";
import { bestByDimension, clusterOf, evaluatePlan, planSizes, predictPublishedRun, searchPlans, type PlanResult } from "../../lib/plan/index.js";
import { PUBLISHED_5D_RUNS, rankPublishedRun } from "../../lib/plan/published5d.js";

const h100 = (nodes: number) => clusterOf("h100-80gb", 8, nodes, "net-400g", 2 * 2 ** 40);
const row = (r?: PlanResult) => r && { label: r.label, tokensPerS: r.tokensPerS, mfu: r.mfu, reason: r.reason ?? null, peak: r.memory.peak.total, cpS: r.time.contextParallelCommS, a2aS: r.time.expertParallelCommS, totalS: r.time.totalS };
const byDim = (s: ReturnType<typeof searchPlans>, dim: "contextParallel" | "expertParallel") => bestByDimension(s, dim).map((x) => ({ size: x.size, best: row(x.best) ?? null, closest: row(x.closest) ?? null }));

const mixtral = parseModelConfig(loadPresetText("mixtral-8x7b"));
const moeW = { globalBatch: 1024, seqLen: 4096, precision: "bf16", optimizer: "adamw" } as const;
const moe = searchPlans(mixtral, h100(8), moeW, { offloads: ["none"] });
const llama = parseModelConfig(readFileSync(new URL("../../lib/plan/configs/llama-3.1-70b.json", import.meta.url), "utf8"));
const longW = { globalBatch: 64, seqLen: 131072, precision: "bf16", optimizer: "adamw" } as const;
const long = searchPlans(llama, h100(64), longW, { offloads: ["none"] });

const SPACES: Record<string, object> = {
  "deepseek-v3": { tensorParallel: [1], pipelineParallel: [8, 16, 32], microBatches: [1], zeroStages: [1], offloads: ["none"], attentions: ["flash"], contextParallel: [1] },
  "llama3-405b-128k": { tensorParallel: [8], pipelineParallel: [8, 16, 32], microBatches: [1], zeroStages: [1], offloads: ["none"], attentions: ["flash"], sequenceParallel: [true], fp8: [false] },
};
const published = PUBLISHED_5D_RUNS.map((run) => {
  const p = predictPublishedRun(run), k = rankPublishedRun(run, SPACES[run.id]);
  const { C, ep, gpus } = planSizes(run.plan);
  // DeepSeek-V3 without what the planner leaves out: the all-to-alls (DualPipe hides them) and the recomputation.
  const bare = run.id === "deepseek-v3" ? evaluatePlan(run.arch, { ...run.plan, recompute: "none" }, run.cluster, run.workload).time : null;
  return {
    id: run.id, name: run.name, metric: run.published.metric, published: run.published.value, predicted: p.predicted, ratio: p.ratio, mfu: p.mfu, fits: p.fits,
    layout: `${run.plan.tensorParallel > 1 ? `TP${run.plan.tensorParallel} × ` : ""}${C > 1 ? `CP${C} × ` : ""}PP${run.plan.pipelineParallel}${ep > 1 ? ` × EP${ep}` : ""} × DP${run.plan.dataParallel}${run.plan.fp8 ? ", FP8" : ""}`,
    gpus, gpu: run.cluster.gpu.name, source: run.source, assumptions: run.assumptions, reason: k.result.reason ?? null, rank: k.rank, placeBySpeed: k.placeBySpeed, searched: k.searched,
    best: row(k.best), bareRatio: bare ? (run.workload.globalBatch * run.workload.seqLen) / (bare.totalS - bare.expertParallelCommS) / run.published.value : null,
  };
});

process.stdout.write(JSON.stringify({
  moe: { searched: moe.searched, fit: moe.ranked.length, best: row(moe.ranked[0]), byEp: byDim(moe, "expertParallel") },
  long: { searched: long.searched, fit: long.ranked.length, best: row(long.ranked[0]), byCp: byDim(long, "contextParallel") },
  published,
}));
