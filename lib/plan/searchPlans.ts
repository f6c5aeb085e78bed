import type { ModelArch } from "../memory/index.js";
import type { Cluster } from "./clusterPresets.js";
import { enumeratePlans, type PlanSpace } from "./enumeratePlans.js";
import { evaluatePlan, type EvaluateOptions, type PlanResult } from "./evaluatePlan.js";
import { planLabel, type Plan, type Workload } from "./planLabel.js";
import { tpModelConfig, validTensorParallelSizes } from "../tensor-parallel/config.js";

/**
 * The planner's answer: the plans that run, fastest first, and the others with their reasons.
 * @see {@link searchPlans}
 */
export interface SearchResult {
  /** Plans that fit, by tokens per second (descending); at equal speed the one with more memory to spare first. */
  ranked: PlanResult[];
  /** Plans that do not run, each with its `reason`: those over GPU memory first, least over first; then over host memory; then those a framework refuses. */
  rejected: PlanResult[];
  /** How many plans were judged. */
  searched: number;
  /** Plans left unjudged because they are dominated: FP8 twins of plans over GPU memory (FP8 only adds memory: its weight copies). */
  pruned: number;
}

/**
 * Judges plans in order ({@link evaluatePlan}), skipping the FP8 twin of a plan over GPU memory: the twin is
 * the same plan with FP8 GEMMs, which keeps every byte of the 16-bit plan and adds the weights' FP8 copies, so it
 * cannot fit either (enumeratePlans lists a plan's twin right after it).
 * @param arch the model
 * @param plans plans, as enumeratePlans lists them (or any slice of them)
 * @param cluster the cluster
 * @param workload the workload
 * @param options step-time assumptions, price and a search's memo (`cache`)
 * @returns `{results, pruned}`: the judged plans and how many twins were skipped
 * @throws RangeError from {@link evaluatePlan}
 * @example judgePlans(arch, enumeratePlans(arch, cluster, workload), cluster, workload).pruned
 * @see {@link searchPlans}
 */
export function judgePlans(arch: ModelArch, plans: readonly Plan[], cluster: Cluster, workload: Workload, options: EvaluateOptions = {}): { results: PlanResult[]; pruned: number } {
  const results: PlanResult[] = [];
  let pruned = 0, previous: PlanResult | undefined;
  for (const p of plans) {
    const twin = p.fp8 && previous && !previous.plan.fp8 && previous.label === planLabel({ ...p, fp8: false });
    if (twin && previous!.reason?.startsWith("needs")) { pruned++; continue; }
    previous = evaluatePlan(arch, p, cluster, workload, options);
    results.push(previous);
  }
  return { results, pruned };
}

/**
 * Searches every well-formed plan ({@link enumeratePlans}) and judges each
 * ({@link evaluatePlan}) but the dominated ones ({@link judgePlans}): the ones that run ranked by throughput, the others
 * kept with the reason they were rejected.
 * @param arch the model
 * @param cluster the cluster
 * @param workload the workload
 * @param space restrictions of the search, e.g. `{offloads: ["none"]}` for "no offload"
 * @param options step-time assumptions and price
 * @returns `{ranked, rejected, searched, pruned}`
 * @throws RangeError from {@link enumeratePlans} and {@link evaluatePlan}
 * @example searchPlans(llama2_7b, clusterPreset("8x-a100-80gb"), { globalBatch: 64, seqLen: 4096, precision: "bf16", optimizer: "adamw" }).ranked[0].label
 * @see {@link evaluatePlan}
 */
export function searchPlans(arch: ModelArch, cluster: Cluster, workload: Workload, space: PlanSpace = {}, options: EvaluateOptions = {}): SearchResult {
  const plans = enumeratePlans(arch, cluster, workload, space);
  const { results, pruned } = judgePlans(arch, plans, cluster, workload, { ...options, cache: options.cache ?? new Map<string, unknown>() }); // one memo for the whole search
  return { ...rankResults(results), pruned };
}

/**
 * Sorts judged plans into the planner's answer (the second half of
 * {@link searchPlans}, for a caller that judges plans in pieces, such as a
 * page that yields to the browser between them).
 * @param results judged plans, from {@link evaluatePlan}
 * @returns `{ranked, rejected, searched, pruned: 0}` as {@link searchPlans} returns them (new arrays; add the pruned count of {@link judgePlans})
 * @throws nothing
 * @example rankResults(plans.map((p) => evaluatePlan(arch, p, cluster, workload))).ranked[0]
 * @see {@link searchPlans}
 */
export function rankResults(results: readonly PlanResult[]): SearchResult {
  const ranked = results.filter((r) => r.fits).sort((a, b) => b.tokensPerS - a.tokensPerS || a.memory.peak.total - b.memory.peak.total);
  // Over GPU memory first (least over first), then over host memory, then what a framework refuses:
  // the first rejected plan is the closest one a framework would run.
  const kind = (r: PlanResult) => (r.reason!.startsWith("needs") ? 0 : r.reason!.startsWith("offload") ? 1 : 2);
  const rejected = results.filter((r) => !r.fits).sort((a, b) => kind(a) - kind(b) || a.overBytes - b.overBytes);
  return { ranked, rejected, searched: results.length, pruned: 0 };
}

/**
 * One single change to a plan and what it does.
 * @see {@link singleChanges}
 */
export interface SingleChange {
  /** What changes, e.g. "ZeRO stage 2 → 3". */
  change: string;
  result: PlanResult;
}

/**
 * The sensitivity view: every plan one step away from `plan` (one more ZeRO
 * stage, the next recomputation level, half the micro-batch with twice the
 * accumulation, twice the tensor or pipeline size, sequence parallelism or
 * FlashAttention switched on, optimizer or parameter offload), judged, the
 * changes that make it fit first (then by throughput), so a reader sees which
 * single change would make an infeasible plan fit and at what price in speed.
 * Changes that would make an ill-formed plan (t beyond a node, p not dividing
 * the layers) are left out, and so are changes that neither fit nor lower the
 * peak (they are no advice).
 * @param arch the model
 * @param plan the starting plan (typically the rejected plan least over memory)
 * @param cluster the cluster
 * @param workload the workload
 * @param options step-time assumptions
 * @returns the neighbouring plans that fit or come closer, fitting ones first
 * @throws RangeError from {@link evaluatePlan}
 * @example singleChanges(llama2_70b, search.rejected[0].plan, cluster, workload).find((c) => c.result.fits)?.change // e.g. "recompute selective → full"
 * @see {@link searchPlans}
 */
export function singleChanges(arch: ModelArch, plan: Plan, cluster: Cluster, workload: Workload, options: EvaluateOptions = {}): SingleChange[] {
  const out: [string, Plan][] = [];
  if (plan.zeroStage < 3) out.push([`ZeRO stage ${plan.zeroStage} → ${plan.zeroStage + 1}`, { ...plan, zeroStage: (plan.zeroStage + 1) as Plan["zeroStage"] }]);
  const next = { none: "selective", selective: "full" } as const;
  if (plan.recompute !== "full") out.push([`recompute ${plan.recompute} → ${next[plan.recompute]}`, { ...plan, recompute: next[plan.recompute] }]);
  if (plan.microBatch % 2 === 0) out.push([`micro-batch ${plan.microBatch} → ${plan.microBatch / 2} (accumulation ${plan.gradAccum} → ${plan.gradAccum * 2})`, { ...plan, microBatch: plan.microBatch / 2, gradAccum: plan.gradAccum * 2 }]);
  const t2 = plan.tensorParallel * 2;
  if (t2 <= cluster.gpusPerNode && plan.dataParallel % 2 === 0 && validTensorParallelSizes(tpModelConfig(arch), t2).includes(t2)) {
    out.push([`tensor parallel ${plan.tensorParallel} → ${t2}`, { ...plan, tensorParallel: t2, dataParallel: plan.dataParallel / 2, gradAccum: plan.gradAccum * 2 }]);
  }
  const p2 = plan.pipelineParallel * 2;
  if (arch.numLayers % p2 === 0 && plan.dataParallel % 2 === 0) {
    out.push([`pipeline parallel ${plan.pipelineParallel} → ${p2}`, { ...plan, pipelineParallel: p2, dataParallel: plan.dataParallel / 2, gradAccum: plan.gradAccum * 2 }]);
  }
  if (!plan.sequenceParallel && plan.tensorParallel > 1) out.push(["sequence parallelism on", { ...plan, sequenceParallel: true }]);
  if (plan.attention !== "flash") out.push(["FlashAttention on", { ...plan, attention: "flash" }]);
  if (plan.offload === "none" && plan.zeroStage >= 1) out.push(["offload the optimizer", { ...plan, offload: "optimizer" }]);
  // DeepSpeed offloads through ZeRO: at stage 0 the step is ZeRO-1 with its optimizer on the CPU (ZeRO-Offload, even on one rank).
  if (plan.offload === "none" && plan.zeroStage === 0) out.push(["offload the optimizer (ZeRO-Offload: stage 0 → 1)", { ...plan, zeroStage: 1, offload: "optimizer" }]);
  if (plan.offload !== "optimizer+params" && plan.zeroStage === 3) out.push(["offload parameters too", { ...plan, offload: "optimizer+params" }]);
  const start = evaluatePlan(arch, plan, cluster, workload, options);
  return out
    .map(([change, p]) => ({ change, result: evaluatePlan(arch, p, cluster, workload, options) }))
    // A change that neither fits nor brings the peak down is no advice (ZeRO-1 with one data-parallel rank, say).
    .filter(({ result }) => result.fits || (result.reason!.startsWith("needs") && result.overBytes < start.overBytes))
    .sort((a, b) => Number(b.result.fits) - Number(a.result.fits) || b.result.tokensPerS - a.result.tokensPerS || a.result.overBytes - b.result.overBytes);
}
