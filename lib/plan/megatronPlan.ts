/**
 * A Megatron-LM launch as one of the planner's plans, and where it ranks.
 */
import type { MegatronLaunch } from "./readMegatronLaunch.js";
import type { Plan, Workload } from "./planLabel.js";
import type { PlanResult } from "./evaluatePlan.js";
import type { SearchResult } from "./searchPlans.js";

/**
 * The plan and workload a Megatron launch describes: t, p, d from the
 * launch, the distributed optimizer as ZeRO-1 (its fp32 master weights and
 * optimizer states sharded over data parallelism, Megatron's
 * `--use-distributed-optimizer`), no offload, the recomputation, attention
 * and micro-batch, context and expert parallelism, FP8; gradient accumulation = global batch / (micro × d).
 * @param run from readMegatronLaunch, with its world size known
 * @param optimizer the optimizer the workload counts ("adamw": Megatron's default Adam)
 * @returns `{plan, workload}`
 * @throws RangeError `the Megatron launch needs a world size: …`
 * @example megatronPlan(run, "adamw").plan.zeroStage // 1 with --use-distributed-optimizer
 * @see NVIDIA/Megatron-LM docs, distributed optimizer (ZeRO-1-like sharding of the main params and optimizer states); Narayanan et al. 2021 §3
 */
export function megatronPlan(run: MegatronLaunch, optimizer: Workload["optimizer"]): { plan: Plan; workload: Workload } {
  if (run.dataParallel === null || run.globalBatch === null) throw new RangeError("the Megatron launch needs a world size: give torchrun's --nproc_per_node/--nnodes in the text, or --gpus");
  const gradAccum = run.globalBatch / (run.microBatch * run.dataParallel);
  return {
    plan: {
      dataParallel: run.dataParallel, tensorParallel: run.tensorParallel, pipelineParallel: run.pipelineParallel, zeroStage: run.zeroStage,
      offload: "none", recompute: run.recompute, sequenceParallel: run.sequenceParallel, attention: run.attention, microBatch: run.microBatch, gradAccum,
      ...(run.contextParallel > 1 ? { contextParallel: run.contextParallel } : {}), ...(run.expertParallel > 1 ? { expertParallel: run.expertParallel } : {}), ...(run.fp8 ? { fp8: true } : {}),
    },
    workload: { globalBatch: run.globalBatch, seqLen: run.seqLen, precision: run.precision, optimizer },
  };
}

/**
 * Where a judged plan stands among the planner's answer: its 1-based rank by
 * throughput among the plans that fit (ties go after the searched plan of equal speed), or null when it does not fit.
 * @param result the judged plan
 * @param search the planner's answer for the same model, cluster and workload
 * @returns `{rank, of}` or null
 * @example rankAmong(evaluatePlan(arch, plan, c, w), searchPlans(arch, c, w)) // { rank: 3, of: 412 }
 * @see {@link megatronPlan}
 */
export function rankAmong(result: PlanResult, search: SearchResult): { rank: number; of: number } | null {
  if (!result.fits) return null;
  const faster = search.ranked.filter((r) => r.tokensPerS > result.tokensPerS && r.label !== result.label).length;
  return { rank: faster + 1, of: search.ranked.length + (search.ranked.some((r) => r.label === result.label) ? 0 : 1) };
}
