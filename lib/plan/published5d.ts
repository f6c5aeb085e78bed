import { parseModelConfig } from "../memory/index.js";
import { loadPresetText } from "../memory/loadPresetText.js";
import { clusterOf } from "./clusterPresets.js";
import type { PlanSpace } from "./enumeratePlans.js";
import { evaluatePlan, type PlanResult } from "./evaluatePlan.js";
import { rankAmong } from "./megatronPlan.js";
import { PUBLISHED_RUNS, type PublishedRun } from "./publishedRuns.js";
import { searchPlans } from "./searchPlans.js";

const TiB = 2 ** 40;
const deepseekV3 = parseModelConfig(loadPresetText("deepseek-v3"));
const llama3 = PUBLISHED_RUNS.find((r) => r.id === "llama3-405b")!;

/**
 * Node only (it reads the DeepSeek-V3 config.json; not in lib/plan/index, which pages bundle). Published runs beyond three dimensions, for the 5D planner's held-in checks. Both models' layers are
 * padded so that the published p divides them (the planner's pipeline splits layers evenly; the papers
 * give the edge stages fewer): a few per cent more compute, said in `assumptions`.
 * - DeepSeek-V3 (671B, 37B active): 2,048 H800 (256 nodes of 8, InfiniBand 400 Gb/s per GPU), PP 16, EP 64,
 *   ZeRO-1 data parallelism (d = 128), no tensor parallelism, FP8 GEMMs, 15,360 sequences of 4,096 tokens per step;
 *   180K H800 GPU-hours per trillion tokens, i.e. 10¹² / (180,000 × 3,600) × 2,048 = 3,160,494 tokens/s;
 * - Llama 3 405B, long-context stage: 16,384 H100, TP 8, CP 16, PP 16, DP 8, sequences of 131,072 tokens,
 *   16 per data-parallel group (128 per step, 16M tokens), 380 TFLOP/s per GPU, BF16 MFU 38 %; K and V all-gathered.
 * @example PUBLISHED_5D_RUNS.map((r) => r.id) // ["deepseek-v3", "llama3-405b-128k"]
 * @see DeepSeek-AI 2024, *DeepSeek-V3 Technical Report*, §3.1 (2,048 H800, NVLink inside nodes, IB between), §3.2 (PP 16,
 *   EP 64 over 8 nodes, ZeRO-1 DP, no TP; DualPipe overlaps the all-to-alls; node-limited routing), §3.3 (FP8), §4.2 (batch
 *   15,360 × 4,096), Table 1 (180K GPU-hours per trillion tokens); Dubey et al. 2024, *The Llama 3 Herd of Models*, Table 4 and §3.3.2
 */
export const PUBLISHED_5D_RUNS: readonly PublishedRun[] = Object.freeze([
  {
    id: "deepseek-v3", name: "DeepSeek-V3 (DeepSeek-AI, 2024), 2,048 GPUs",
    arch: { ...deepseekV3, numLayers: 64, moe: { ...deepseekV3.moe!, numMoeLayers: deepseekV3.moe!.numMoeLayers + 3 } },
    cluster: clusterOf("h800-80gb", 8, 256, "net-400g", 2 * TiB),
    workload: { globalBatch: 15360, seqLen: 4096, precision: "bf16", optimizer: "adamw" },
    plan: { dataParallel: 128, tensorParallel: 1, pipelineParallel: 16, expertParallel: 64, zeroStage: 1, offload: "none", recompute: "full", sequenceParallel: false, attention: "flash", microBatch: 1, gradAccum: 120, fp8: true },
    runtime: {},
    published: { metric: "tokens-per-s", value: 3160494 },
    source: "DeepSeek-V3 Technical Report §3.1–3.3, §4.2 and Table 1 (2,664K H800 GPU-hours for 14.8T tokens: 180K per trillion)",
    assumptions: "61 layers padded to 64 (3 more MoE layers, +5 % compute) so p = 16 divides them; 1F1B in place of DualPipe, the all-to-alls exposed " +
      "(DualPipe hides them behind the other direction's compute) and no node-limited routing; full recomputation where the report recomputes " +
      "only RMSNorm and MLA's up-projections and caches some activations in FP8 (without it the planner's activations do not fit); micro-batch 1",
  },
  {
    id: "llama3-405b-128k", name: "Llama 3 405B (Meta, 2024), 131,072-token stage on 16,384 GPUs",
    arch: { ...llama3.arch, numLayers: 128 },
    cluster: clusterOf("h100-80gb", 8, 2048, "net-400g", 2 * TiB),
    workload: { globalBatch: 128, seqLen: 131072, precision: "bf16", optimizer: "adamw" },
    plan: { dataParallel: 8, tensorParallel: 8, pipelineParallel: 16, contextParallel: 16, zeroStage: 1, offload: "none", recompute: "none", sequenceParallel: true, attention: "flash", microBatch: 1, gradAccum: 16 },
    runtime: { virtualStages: 2, cpCommType: "allgather" },
    published: { metric: "palm-mfu", value: 0.38 },
    source: "Dubey et al. 2024, Table 4 (16,384 GPUs, TP 8, CP 16, PP 16, DP 8, sequence 131,072, 16 sequences per DP group, 380 TFLOP/s, MFU 38 %), §3.3.2 (all-gather of K and V)",
    assumptions: "126 layers padded to 128 (+1.6 % compute) so p = 16 divides them; V = 2 as for the 8K stage; their FSDP timed as Megatron's distributed optimizer",
  },
].map((r) => Object.freeze(r as PublishedRun)));

/**
 * Where a published layout stands in the planner's own search: the run judged ({@link evaluatePlan}), the
 * search over `space` with the run's model, cluster, workload and runtime, the layout's rank among the plans
 * that fit (null when the planner finds it over memory), its place by speed alone (1 + the fitting plans faster than it,
 * whether or not it fits), and the planner's best plan.
 * @param run a {@link PublishedRun} whose p divides its layers
 * @param space the search's restrictions (e.g. t and b fixed, to keep it small)
 * @returns `{result, rank, placeBySpeed, best, searched}`
 * @throws RangeError from {@link searchPlans}
 * @example rankPublishedRun(PUBLISHED_5D_RUNS[1], { tensorParallel: [8] }).rank // null: the planner finds the layout over memory
 * @see {@link rankAmong}
 */
export function rankPublishedRun(run: PublishedRun, space: PlanSpace): { result: PlanResult; rank: { rank: number; of: number } | null; placeBySpeed: number; best?: PlanResult; searched: number } {
  const options = { runtime: run.runtime, cache: new Map<string, unknown>() };
  const search = searchPlans(run.arch, run.cluster, run.workload, space, options);
  const result = evaluatePlan(run.arch, run.plan, run.cluster, run.workload, options);
  const placeBySpeed = 1 + search.ranked.filter((x) => x.tokensPerS > result.tokensPerS).length;
  return { result, rank: rankAmong(result, search), placeBySpeed, best: search.ranked[0], searched: search.searched };
}
