import { notImplemented } from "../harness/index.js";

/** One data-parallel group's run, without its ZeRO stage. */
export interface RunWithoutStage {
  /** Parameters of this model shard, Ψ/(t·p). */
  shardParams: number;
  /** d, ranks of the data-parallel group. */
  dataParallel: number;
  /** m, micro-batches per optimizer step. */
  microBatches: number;
  /** The group's link: a transfer of n bytes takes alphaS + n / bandwidthBytesPerS. */
  link: { alphaS: number; bandwidthBytesPerS: number };
  /** Bytes of a communicated element (2 for bf16 gradients and parameters). */
  bytesPerElement: number;
  /** Backward of one micro-batch, seconds. */
  backwardPerMicroBatchS: number;
  /** Forward + backward (+ recomputation) of one micro-batch, seconds. */
  busyPerMicroBatchS: number;
}

/** What a profiler measured for one step: data-parallel communication that nothing hid, and that computation hid. */
export interface CommProfile {
  exposedS: number;
  hiddenS: number;
}

/**
 * Exercise 12.3 — which ZeRO stage was that run?
 *
 * A profiler shows how many seconds of one step's data-parallel communication were exposed and how
 * many were hidden behind computation. Return the ZeRO stages (ascending) under which this run
 * would show that profile: both numbers within 1 % of the larger of the two being compared, or
 * within 10 µs, whichever is wider (bounds included); [] when no stage would.
 *
 * The run is DeepSpeed's with `overlap_comm` and its default bucket all-reduce, as the chapter's
 * section "Communication that nothing hides" describes each stage's collectives, when they run
 * and behind which computation they can hide (the gradient reduction behind a micro-batch's
 * backward; ZeRO-3's collectives of a micro-batch behind its forward and backward; what runs
 * after the optimizer step behind nothing). A collective, or a group of them, that overlaps c
 * seconds of computation hides min(time, c) and exposes the rest. Collectives are rings timed with
 * chapter 5's α-β closed forms: lib/collectives' `collectiveCost(kind, elements, ranks, link,
 * bytesPerElement).timeS` (kinds "ring-all-reduce", "reduce-scatter", "all-gather") is yours to import.
 *
 * Errors (RangeError): `profile.exposedS must be a finite number >= 0, got -1` (likewise hiddenS);
 * `microBatches must be an integer >= 1, got 0`; `backwardPerMicroBatchS must be a finite number >= 0, got -1`
 * (likewise busyPerMicroBatchS).
 *
 * Read: the chapter's "Communication that nothing hides"; chapter 8 for each stage's volumes.
 *
 * @param run the run without its stage
 * @param profile the measured seconds per step
 * @returns the stages that agree, ascending
 * @example stagesFromProfile({ shardParams: 1e9, dataParallel: 8, microBatches: 4, link: { alphaS: 0, bandwidthBytesPerS: 100e9 },
 *   bytesPerElement: 2, backwardPerMicroBatchS: 0.02, busyPerMicroBatchS: 0.03 }, { exposedS: 0.0325, hiddenS: 0.02 })
 * // [1] (the all-reduce takes 2 · 7/8 · 2e9 B / 100e9 B/s = 0.035 s)
 */
export function stagesFromProfile(run: RunWithoutStage, profile: CommProfile): (0 | 1 | 2 | 3)[] {
  return notImplemented("12.3");
}
