import { notImplemented } from "../harness/index.js";

/**
 * Exercise 12.3 — the data-parallel communication that nothing hides.
 *
 * One optimizer step of a data-parallel group of `dataParallel` ranks, each holding a model
 * shard of `shardParams` parameters, `microBatches` micro-batches per step. Collectives are
 * rings; time one with chapter 5's α-β closed form (lib/collectives' `collectiveCost(algorithm,
 * shardParams, dataParallel, link, bytesPerElement).timeS` may be imported). Per ZeRO stage, as
 * DeepSpeed issues them with `overlap_comm: true` and its default bucket all-reduce
 * (`use_multi_rank_bucket_allreduce`: each gradient bucket is all-reduced and each rank keeps its slice):
 * - stage 0: one all-reduce of the gradients per step, after the last micro-batch (DDP's
 *   `no_sync` on the others), overlapping that micro-batch's backward;
 * - stage 1: the same all-reduce, then one all-gather of the updated parameters after the
 *   optimizer step, which overlaps nothing;
 * - stage 2: the all-reduce after every micro-batch, each overlapping its backward; then the
 *   all-gather, which overlaps nothing;
 * - stage 3: per micro-batch two all-gathers (before forward and before backward) and one
 *   reduce-scatter, prefetched so that together they overlap that micro-batch's whole
 *   forward + backward (`busyPerMicroBatchS`).
 * A collective (or a group of them) that overlaps c seconds of computation hides min(comm, c)
 * and exposes the rest. With one rank nothing is communicated.
 *
 * Errors (RangeError): `zeroStage must be 0, 1, 2 or 3, got 4`; `microBatches must be an integer >= 1, got 0`;
 * `backwardPerMicroBatchS must be a finite number >= 0, got -1` (likewise busyPerMicroBatchS).
 *
 * Read: the chapter's "Communication that nothing hides" section.
 *
 * @param o { zeroStage, shardParams, dataParallel, microBatches, link: {alphaS, bandwidthBytesPerS}, bytesPerElement, backwardPerMicroBatchS, busyPerMicroBatchS }
 * @returns { exposedS, hiddenS } in seconds per step
 * @example dataParallelCommTime({ zeroStage: 0, shardParams: 1e9, dataParallel: 8, microBatches: 4, link: { alphaS: 0, bandwidthBytesPerS: 100e9 }, bytesPerElement: 2, backwardPerMicroBatchS: 0.02, busyPerMicroBatchS: 0.03 })
 *   // { exposedS: 0.015, hiddenS: 0.02 } (the all-reduce takes 2·7/8·2e9 B / 100e9 B/s = 0.035 s)
 */
export function dataParallelCommTime(o: {
  zeroStage: 0 | 1 | 2 | 3; shardParams: number; dataParallel: number; microBatches: number;
  link: { alphaS: number; bandwidthBytesPerS: number }; bytesPerElement: number; backwardPerMicroBatchS: number; busyPerMicroBatchS: number;
}): { exposedS: number; hiddenS: number } {
  return notImplemented("12.3");
}
