/**
 * Data-parallel communication of one optimizer step, collective by collective,
 * as PyTorch DDP and DeepSpeed's ZeRO stages issue it under gradient accumulation.
 */
import { checkStage } from "./validateZeroOptions.js";

/** A collective's kind (ring algorithms, NCCL's names). */
export type StepCollectiveKind = "all-reduce" | "reduce-scatter" | "reduce" | "all-gather";
/** When a collective runs: after every micro-batch's backward, once at the accumulation boundary, or after the optimizer step. */
export type StepCollectiveWhen = "per-micro-batch" | "boundary" | "after-step";

/** One collective of a step. */
export interface StepCollective {
  kind: StepCollectiveKind;
  /** What it carries (gradients in the communication dtype, parameters in 16 bits). */
  tensor: "gradients" | "parameters";
  /** What it is for, in words. */
  what: string;
  when: StepCollectiveWhen;
  /** Calls per optimizer step: K when per micro-batch, else 1. */
  timesPerStep: number;
  /** n, the elements one call covers (the whole buffer, not a rank's shard). */
  elements: number;
  /** Elements sent by all P ranks together in one call on a ring: 2(P−1)n for an all-reduce, (P−1)n otherwise. */
  elementsSent: number;
  /** The paper's count for one call, in Ψ: n/Ψ, or 2n/Ψ for an all-reduce (the factor (P−1)/P dropped). */
  psiUnits: number;
}

/** What {@link zeroStepCommunication} returns. */
export interface StepCommunication {
  /** In the order a step issues them. */
  collectives: StepCollective[];
  /** Σ elementsSent × timesPerStep: all ranks, one optimizer step. */
  elementsSent: number;
  /** elementsSent / P: what one rank sends on average per step. */
  elementsSentPerRank: number;
  /** Σ psiUnits × timesPerStep: the step's volume in the paper's Ψ units (DDP with no_sync = 2). */
  psiUnits: number;
}

/** The options of {@link zeroStepCommunication}; omitted ones take DeepSpeed's and PyTorch's defaults. */
export interface StepCommunicationOptions {
  /** 0 (plain data parallelism: DDP, or DeepSpeed without ZeRO), 1, 2 or 3. */
  stage: number;
  /** P, data-parallel ranks (integer ≥ 1). */
  dataParallel: number;
  /** Ψ, parameters (integer ≥ 1). */
  numParams: number;
  /** K, micro-batches per optimizer step (integer ≥ 1, default 1). */
  gradAccumSteps?: number;
  /** Stages 1–2: DeepSpeed's `use_multi_rank_bucket_allreduce` (default true since v0.12.4): all-reduce each gradient bucket; false: one `reduce` per owner (the paper's reduce-scatter volume). */
  multiRankBucketAllreduce?: boolean;
  /** Stages 1–2: DeepSpeed's `reduce_scatter` (default true); false all-reduces the gradients. */
  reduceScatter?: boolean;
  /** Stage 0: gradients synchronised only on the boundary micro-batch (DDP's `no_sync` on the others, as the HF Trainer and Accelerate do; DeepSpeed's stage 0 always). Default true; false all-reduces after every micro-batch. */
  noSync?: boolean;
  /** Stages 1–3: DeepSpeed's `engine.coalesce_grad_reduction()` (v0.19.2+): gradients accumulate unsharded and are reduced once at the boundary. Default false. */
  coalesceGradReduction?: boolean;
  /** Stage 3: elements of persistent tensors (under `stage3_param_persistence_threshold`): never gathered per layer, all-gathered once after the step. Default 0. */
  persistentParams?: number;
  /** Stage 3: DeepSpeed's `stage3_max_reuse_distance` R in elements: a parameter used again within R elements is not released, so about min(Ψ, R/2) elements at the forward/backward turn are not gathered again in backward. Default 0 (every layer re-gathered, the paper's count); DeepSpeed's default is 1e9. */
  maxReuseDistance?: number;
}

const integerAtLeast = (name: string, v: unknown, min: number): number => {
  if (typeof v !== "number" || !Number.isInteger(v) || v < min) throw new RangeError(`${name} must be an integer >= ${min}, got ${String(v)}`);
  return v;
};
const bool = (name: string, v: unknown, dflt: boolean): boolean => {
  if (v === undefined) return dflt;
  if (typeof v !== "boolean") throw new RangeError(`${name} must be true or false, got ${JSON.stringify(v)}`);
  return v;
};

/**
 * The data-parallel collectives of one optimizer step (K micro-batches), as the
 * frameworks issue them. On a ring of P ranks an all-reduce of n elements sends
 * 2(P−1)n over all ranks, a reduce-scatter, all-gather or per-owner reduce (P−1)n;
 * the paper counts these per rank as 2Ψ and Ψ for large P.
 *
 * - Stage 0: one gradient all-reduce at the boundary (DDP under `no_sync`, DeepSpeed stage 0), or K without it: 2Ψ or 2KΨ.
 * - Stage 1: gradients are reduced once, at the boundary; then the owners' updated parameters are all-gathered:
 *   Ψ + Ψ = 2Ψ (the paper's design, per-owner reduces) or 2Ψ + Ψ = 3Ψ (DeepSpeed's default bucket all-reduce).
 * - Stage 2: the gradient reduction runs after every micro-batch (DeepSpeed engine.py: "ZeRO stage >= 2 communicates during
 *   non gradient accumulation boundaries as well"), then the all-gather: KΨ + Ψ, or 2KΨ + Ψ by default.
 * - Stage 3: per micro-batch an all-gather in forward, one in backward and a reduce-scatter: 3KΨ, plus an all-gather of the
 *   persistent tensors after the step (they skip the per-layer gathers); `maxReuseDistance` removes part of the backward gather.
 *
 * @param o {@link StepCommunicationOptions}
 * @returns {@link StepCommunication}: the collectives in issue order and the step's totals
 * @throws RangeError naming the field: `stage must be 0, 1, 2 or 3, got 4`; `dataParallel must be an integer >= 1, got 0`;
 *   `numParams must be an integer >= 1, got 0`; `gradAccumSteps must be an integer >= 1, got 0`;
 *   `persistentParams must be an integer >= 0 and <= numParams (1000), got 2000`; `noSync must be true or false, got "yes"`;
 *   `noSync applies to stages 0 and 1, got stage 2 (…)`; `coalesceGradReduction needs stage 1, 2 or 3, got stage 0 (…)`
 * @example zeroStepCommunication({ stage: 2, dataParallel: 8, numParams: 1e9, gradAccumSteps: 8, multiRankBucketAllreduce: false }).psiUnits // 9
 * @example zeroStepCommunication({ stage: 1, dataParallel: 8, numParams: 1e9 }).psiUnits // 3 (DeepSpeed's default)
 * @see Rajbhandari et al. 2020, ZeRO, §7.2 (2Ψ, 3Ψ); DeepSpeed edaa722 `runtime/engine.py` `allreduce_gradients`,
 *   `runtime/zero/stage_1_and_2.py` `average_tensor` / `step` (all_gather_dp_groups), `runtime/zero/config.py`
 *   (`use_multi_rank_bucket_allreduce`, PR #4695), `stage3.py` `_post_step`, `partitioned_param_coordinator.py`
 *   `__params_to_release`; PyTorch `DistributedDataParallel.no_sync`; NCCL PERFORMANCE.md (ring volumes)
 */
export function zeroStepCommunication(o: StepCommunicationOptions): StepCommunication {
  const stage = checkStage(o.stage);
  const P = integerAtLeast("dataParallel", o.dataParallel, 1);
  const psi = integerAtLeast("numParams", o.numParams, 1);
  const K = integerAtLeast("gradAccumSteps", o.gradAccumSteps ?? 1, 1);
  const multiRank = bool("multiRankBucketAllreduce", o.multiRankBucketAllreduce, true);
  const reduceScatter = bool("reduceScatter", o.reduceScatter, true);
  const noSync = bool("noSync", o.noSync, true);
  const coalesce = bool("coalesceGradReduction", o.coalesceGradReduction, false);
  const persistent = o.persistentParams ?? 0;
  if (!Number.isInteger(persistent) || persistent < 0 || persistent > psi) {
    throw new RangeError(`persistentParams must be an integer >= 0 and <= numParams (${psi}), got ${String(persistent)}`);
  }
  const reuse = integerAtLeast("maxReuseDistance", o.maxReuseDistance ?? 0, 0);
  if (coalesce && stage === 0) throw new RangeError("coalesceGradReduction needs stage 1, 2 or 3, got stage 0 (DeepSpeed raises NotImplementedError)");
  if (o.noSync !== undefined && stage >= 2) throw new RangeError(`noSync applies to stages 0 and 1, got stage ${stage} (DeepSpeed's no_sync asserts at stages 2 and 3; use coalesceGradReduction)`);

  const out: StepCollective[] = [];
  const add = (kind: StepCollectiveKind, tensor: StepCollective["tensor"], what: string, when: StepCollectiveWhen, n: number) => {
    if (n === 0) return;
    const factor = kind === "all-reduce" ? 2 : 1;
    out.push({ kind, tensor, what, when, timesPerStep: when === "per-micro-batch" ? K : 1, elements: n, elementsSent: factor * (P - 1) * n, psiUnits: (factor * n) / psi });
  };
  const gradWhen = (perMicroBatch: boolean): StepCollectiveWhen => (perMicroBatch && K > 1 ? "per-micro-batch" : "boundary");

  if (stage === 0) {
    add("all-reduce", "gradients", "gradient all-reduce (DDP buckets)", gradWhen(!noSync), psi);
  } else if (stage === 1 || stage === 2) {
    const kind: StepCollectiveKind = !reduceScatter || multiRank ? "all-reduce" : "reduce";
    const what = kind === "reduce" ? "gradient reduce into each owner (one reduce per owner and bucket)" : reduceScatter ? "gradient bucket all-reduce, each rank keeps its slice" : "gradient all-reduce (reduce_scatter: false)";
    add(kind, "gradients", what, gradWhen(stage === 2 && !coalesce), psi);
    add("all-gather", "parameters", "all-gather of the updated 16-bit parameters from their owners", "after-step", psi);
  } else {
    const gathered = psi - persistent;
    const kept = Math.min(gathered, Math.floor(reuse / 2));
    add("all-gather", "parameters", "forward: all-gather each unit before use", "per-micro-batch", gathered);
    add("all-gather", "parameters", "backward: all-gather each unit again", "per-micro-batch", gathered - kept);
    add("reduce-scatter", "gradients", "gradient reduce-scatter into the owners", gradWhen(!coalesce), psi);
    add("all-gather", "parameters", "all-gather of the updated persistent tensors", "after-step", persistent);
  }
  const elementsSent = out.reduce((s, c) => s + c.elementsSent * c.timesPerStep, 0);
  return { collectives: out, elementsSent, elementsSentPerRank: elementsSent / P, psiUnits: out.reduce((s, c) => s + c.psiUnits * c.timesPerStep, 0) };
}
