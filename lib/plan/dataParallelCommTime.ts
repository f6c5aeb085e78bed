import { collectiveCost, type CostModel } from "../collectives/index.js";
import type { ZeroStage } from "../memory/index.js";

/**
 * Options of {@link dataParallelCommTime}.
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
  /** The link of the data-parallel group. */
  link: CostModel;
  /** Bytes of a communicated element: 2 for fp16/bf16 gradients and parameters, 4 for fp32. */
  bytesPerElement: number;
  /** Backward time of one micro-batch, seconds (what gradient reduction can hide behind). */
  backwardPerMicroBatchS: number;
  /** Forward + backward (+ recomputation) of one micro-batch, seconds (what ZeRO-3's prefetched gathers can hide behind). */
  busyPerMicroBatchS: number;
}

/**
 * Data-parallel communication of one optimizer step, split into what
 * computation hides and what it does not, per ZeRO stage, with ring
 * collectives over d ranks of Ψ/(t·p) elements:
 * - stage 0 and 1: one all-reduce of the gradients per step (after the last
 *   micro-batch, as DDP's `no_sync` and DeepSpeed's accumulation boundary do),
 *   hidden behind that micro-batch's backward as far as it lasts;
 * - stage 2: a reduce-scatter per micro-batch (each micro-batch's gradients go
 *   to their owners), each behind its backward; then one all-gather of the
 *   updated parameters, which nothing hides;
 * - stage 3: per micro-batch an all-gather before forward, another before
 *   backward, and a reduce-scatter (3Ψ per pass, ZeRO §7), all prefetched
 *   behind that micro-batch's forward and backward as far as they last.
 * Each collective is hidden up to the computation it overlaps: hidden =
 * min(comm, compute), exposed = comm − hidden.
 * @param o see {@link DataParallelCommOptions}
 * @returns `{exposedS, hiddenS}`: seconds per step; both 0 when d = 1
 * @throws RangeError `microBatches must be an integer >= 1, got 0`, `backwardPerMicroBatchS must be a finite number >= 0, got -1`,
 *   `zeroStage must be 0, 1, 2 or 3, got 4`, and those of {@link collectiveCost}
 * @example dataParallelCommTime({ zeroStage: 0, shardParams: 1e9, dataParallel: 8, microBatches: 4, link: { alphaS: 0, bandwidthBytesPerS: 100e9 }, bytesPerElement: 2, backwardPerMicroBatchS: 0.02, busyPerMicroBatchS: 0.03 })
 *   // all-reduce 2·7/8·2e9 B / 100e9 B/s = 0.035 s: { hiddenS: 0.02, exposedS: 0.015 }
 * @see Rajbhandari et al. 2019, *ZeRO*, §7 (2Ψ for stages 0–2, 3Ψ for stage 3); Li et al. 2020, *PyTorch Distributed*, §3.2 (overlap with backward); DeepSpeed stage_1_and_2.py and stage3.py
 */
export function dataParallelCommTime(o: DataParallelCommOptions): { exposedS: number; hiddenS: number } {
  if (![0, 1, 2, 3].includes(o.zeroStage)) throw new RangeError(`zeroStage must be 0, 1, 2 or 3, got ${o.zeroStage}`);
  if (!Number.isSafeInteger(o.microBatches) || o.microBatches < 1) throw new RangeError(`microBatches must be an integer >= 1, got ${o.microBatches}`);
  for (const k of ["backwardPerMicroBatchS", "busyPerMicroBatchS"] as const) {
    if (!Number.isFinite(o[k]) || o[k] < 0) throw new RangeError(`${k} must be a finite number >= 0, got ${o[k]}`);
  }
  const cost = (kind: "ring-all-reduce" | "reduce-scatter" | "all-gather") => collectiveCost(kind, o.shardParams, o.dataParallel, o.link, o.bytesPerElement).timeS;
  let exposedS = 0;
  let hiddenS = 0;
  const hide = (commS: number, behindS: number, times: number) => {
    const h = Math.min(commS, behindS);
    hiddenS += times * h;
    exposedS += times * (commS - h);
  };
  if (o.zeroStage <= 1) hide(cost("ring-all-reduce"), o.backwardPerMicroBatchS, 1);
  else if (o.zeroStage === 2) {
    hide(cost("reduce-scatter"), o.backwardPerMicroBatchS, o.microBatches);
    exposedS += cost("all-gather");
  } else hide(2 * cost("all-gather") + cost("reduce-scatter"), o.busyPerMicroBatchS, o.microBatches);
  return { exposedS, hiddenS };
}
