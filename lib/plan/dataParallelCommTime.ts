import { collectiveCost, type CostModel } from "../collectives/index.js";
import type { ZeroStage } from "../memory/index.js";
import { zeroStepCommunication } from "../zero/zeroStepCommunication.js";

/**
 * Options of {@link dataParallelCommTime}. The optional switches default to what
 * DeepSpeed does with the configuration the planner exports (`overlap_comm: true`).
 * @see {@link dataParallelCommTime}
 */
export interface DataParallelCommOptions {
  zeroStage: ZeroStage;
  /** Parameters of this model shard, Ψ/(t·p). */
  shardParams: number;
  /** d, ranks of the data-parallel group. */
  dataParallel: number;
  /** m, micro-batches per optimizer step. */
  microBatches: number;
  /** The link of the data-parallel group (lib/collectives' groupCostModel gives it across nodes). */
  link: CostModel;
  /** Bytes of a communicated element: 2 for fp16/bf16 gradients and parameters, 4 for fp32. */
  bytesPerElement: number;
  /** Backward time of one micro-batch, seconds (what gradient reduction can hide behind). */
  backwardPerMicroBatchS: number;
  /** Forward + backward (+ recomputation) of one micro-batch, seconds (what ZeRO-3's prefetched gathers can hide behind). */
  busyPerMicroBatchS: number;
  /**
   * Stages 1–2: reduce each gradient bucket with an all-reduce and keep one's slice (DeepSpeed's
   * `use_multi_rank_bucket_allreduce`, default true), instead of the paper's reduce-scatter. Default true.
   */
  bucketAllReduce?: boolean;
  /** Gradient reduction overlaps backward (DDP's buckets, DeepSpeed `overlap_comm`, Megatron `--overlap-grad-reduce`). Default true. */
  overlapGradReduce?: boolean;
  /** Stage 1: the parameter all-gather after the step overlaps the next step's first forward (Megatron `--overlap-param-gather`). Default false (DeepSpeed). */
  overlapParamGather?: boolean;
  /** Bytes of a gradient element on the wire, when not `bytesPerElement` (Megatron reduces bf16 gradients in fp32: 4). */
  gradBytesPerElement?: number;
  /**
   * The experts' own data-parallel group under expert parallelism: the expert shard (experts/(t·ep·p) parameters) is reduced over
   * the expert-data-parallel group (d·C/ep ranks, lib/expert-parallel's `moeParallelGroups`), while `shardParams` and `dataParallel`
   * are the dense part and its d·C ranks. The two groups' collectives run in the same schedule, one after the other.
   */
  expertGroup?: { shardParams: number; dataParallel: number; link: CostModel };
}

/** One collective of a step: what it carries, how often, behind what it can hide. */
export interface DataParallelCollective {
  kind: "ring-all-reduce" | "reduce-scatter" | "all-gather";
  tensor: "gradients" | "parameters";
  /** "backward": the micro-batch's backward; "busy": its forward + backward; "next-forward": the next step's first forward; "none": nothing. */
  behind: "backward" | "busy" | "next-forward" | "none";
  timesPerStep: number;
  /** Seconds of one call on the link. */
  timeS: number;
}

/**
 * The data-parallel collectives of one optimizer step, as the frameworks issue them
 * under gradient accumulation (m micro-batches):
 * - stage 0 (DDP under `no_sync`): one all-reduce of the gradients at the accumulation boundary;
 * - stage 1: the gradients reduced once at the boundary (DeepSpeed: a bucket all-reduce,
 *   Megatron's distributed optimizer: a reduce-scatter), then the updated parameters
 *   all-gathered after the step (DeepSpeed `stage_1_and_2.py` `step()` ends in `all_gather_dp_groups`);
 * - stage 2: the same reduction after every micro-batch (engine.py: "ZeRO stage >= 2 communicates
 *   during non gradient accumulation boundaries as well"), then the all-gather;
 * - stage 3: per micro-batch an all-gather before forward, one before backward, a reduce-scatter.
 * The list and its volumes come from the zero chapter's `zeroStepCommunication`; this function
 * times each call on the link and says what computation it can hide behind. Under expert parallelism
 * (`expertGroup`) each call also reduces (or gathers) the expert shard over the expert-data-parallel group:
 * its time is the dense group's call plus the experts'.
 * @param o see {@link DataParallelCommOptions}
 * @returns the collectives (none when d = 1)
 * @throws RangeError as {@link dataParallelCommTime}
 * @example dataParallelCollectives({ ...o, zeroStage: 1 }).map((c) => c.kind) // ["ring-all-reduce", "all-gather"]
 * @see DeepSpeed edaa722 `runtime/engine.py` `allreduce_gradients`, `runtime/zero/stage_1_and_2.py` `average_tensor`, `step`;
 *   Megatron-LM d98e8a6 `megatron/core/distributed/` (distributed optimizer: reduce-scatter, all-gather); Rajbhandari et al. 2020, §7.2
 */
export function dataParallelCollectives(o: DataParallelCommOptions): DataParallelCollective[] {
  if (![0, 1, 2, 3].includes(o.zeroStage)) throw new RangeError(`zeroStage must be 0, 1, 2 or 3, got ${o.zeroStage}`);
  if (!Number.isSafeInteger(o.microBatches) || o.microBatches < 1) throw new RangeError(`microBatches must be an integer >= 1, got ${o.microBatches}`);
  for (const k of ["backwardPerMicroBatchS", "busyPerMicroBatchS"] as const) {
    if (!Number.isFinite(o[k]) || o[k] < 0) throw new RangeError(`${k} must be a finite number >= 0, got ${o[k]}`);
  }
  if (o.dataParallel === 1) return [];
  const gradBytes = o.gradBytesPerElement ?? o.bytesPerElement;
  // The volumes and their schedule are the zero chapter's count; what hides them is this chapter's.
  const group = (numParams: number, P: number, link: CostModel): DataParallelCollective[] => zeroStepCommunication({
    stage: o.zeroStage, dataParallel: P, numParams, gradAccumSteps: o.microBatches,
    ...(o.zeroStage === 1 || o.zeroStage === 2 ? { multiRankBucketAllreduce: o.bucketAllReduce ?? true } : {}),
  }).collectives.map((c): DataParallelCollective => {
    // A per-owner reduce moves what a reduce-scatter moves, (P − 1)/P of the buffer per rank: timed as one.
    const kind = c.kind === "all-reduce" ? "ring-all-reduce" : c.kind === "reduce" ? "reduce-scatter" : c.kind;
    const behind = o.zeroStage === 3 && c.when !== "after-step" ? "busy"
      : c.tensor === "gradients" ? (o.overlapGradReduce ?? true ? "backward" : "none")
      : o.overlapParamGather ? "next-forward" : "none";
    const bytes = c.tensor === "gradients" ? gradBytes : o.bytesPerElement;
    return { kind, tensor: c.tensor, behind, timesPerStep: c.timesPerStep, timeS: collectiveCost(kind, c.elements, P, link, bytes).timeS };
  });
  const dense = group(o.shardParams, o.dataParallel, o.link);
  const x = o.expertGroup;
  if (!x || x.dataParallel === 1 || x.shardParams === 0) return dense;
  // Same stage, same micro-batches: the experts' list is the dense one's, call for call; each call is the two groups' in turn.
  const experts = group(x.shardParams, x.dataParallel, x.link);
  return dense.map((c, i) => ({ ...c, timeS: c.timeS + experts[i].timeS }));
}

/**
 * Data-parallel communication of one optimizer step, split into what computation
 * hides and what it does not: the collectives of {@link dataParallelCollectives},
 * each hidden up to the computation it overlaps (hidden = min(comm, window),
 * exposed = the rest): a gradient reduction behind its micro-batch's backward (at the
 * boundary: the last one's); ZeRO-3's three collectives of a micro-batch together
 * behind its forward and backward (prefetched); the stage 1–2 parameter all-gather
 * behind nothing (DeepSpeed) or behind the next step's first forward (Megatron
 * `--overlap-param-gather`, forward = busy − backward).
 * @param o see {@link DataParallelCommOptions}
 * @returns `{exposedS, hiddenS}`: seconds per step; both 0 when d = 1
 * @throws RangeError `microBatches must be an integer >= 1, got 0`, `backwardPerMicroBatchS must be a finite number >= 0, got -1`,
 *   `zeroStage must be 0, 1, 2 or 3, got 4`, and those of lib/collectives' collectiveCost
 * @example dataParallelCommTime({ zeroStage: 0, shardParams: 1e9, dataParallel: 8, microBatches: 4, link: { alphaS: 0, bandwidthBytesPerS: 100e9 }, bytesPerElement: 2, backwardPerMicroBatchS: 0.02, busyPerMicroBatchS: 0.03 })
 *   // all-reduce 2·7/8·2e9 B / 100e9 B/s = 0.035 s: { hiddenS: 0.02, exposedS: 0.015 }
 * @example dataParallelCommTime({ ...thatExample, zeroStage: 1 }).exposedS // 0.015 + the all-gather's 0.0175 = 0.0325
 * @see Rajbhandari et al. 2020, *ZeRO*, §7 (2Ψ, 3Ψ); Li et al. 2020, *PyTorch Distributed*, §3.2 (overlap with backward);
 *   DeepSpeed edaa722 `runtime/zero/config.py` (`overlap_comm`, `use_multi_rank_bucket_allreduce`) and `stage_1_and_2.py`;
 *   Megatron-LM d98e8a6 `megatron/training/arguments.py` (`--overlap-grad-reduce`, `--overlap-param-gather`, `--grad-reduce-in-bf16`)
 */
export function dataParallelCommTime(o: DataParallelCommOptions): { exposedS: number; hiddenS: number } {
  const forwardS = Math.max(0, o.busyPerMicroBatchS - o.backwardPerMicroBatchS);
  let exposedS = 0, hiddenS = 0;
  const collectives = dataParallelCollectives(o);
  if (o.zeroStage === 3) {
    // The three collectives of a micro-batch are prefetched and run together behind its forward and backward.
    const perMicroBatch = collectives.reduce((s, c) => s + (c.timeS * c.timesPerStep) / o.microBatches, 0);
    const h = Math.min(perMicroBatch, o.busyPerMicroBatchS);
    return { hiddenS: o.microBatches * h, exposedS: o.microBatches * (perMicroBatch - h) };
  }
  for (const c of collectives) {
    const window = c.behind === "backward" ? o.backwardPerMicroBatchS : c.behind === "next-forward" ? forwardS : c.behind === "busy" ? o.busyPerMicroBatchS : 0;
    const h = Math.min(c.timeS, window);
    hiddenS += c.timesPerStep * h;
    exposedS += c.timesPerStep * (c.timeS - h);
  }
  return { exposedS, hiddenS };
}
