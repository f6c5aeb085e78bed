/**
 * Which ZeRO stage was that run? A profiler's exposed and hidden data-parallel
 * seconds per step, read backwards through {@link dataParallelCommTime}.
 */
import { dataParallelCommTime, type DataParallelCommOptions } from "./dataParallelCommTime.js";
import type { ZeroStage } from "../memory/index.js";

/** A profile of one step: data-parallel communication that nothing hid, and that computation hid, seconds. */
export interface CommProfile {
  exposedS: number;
  hiddenS: number;
}

/**
 * The ZeRO stages (DeepSpeed's collectives, `overlap_comm`, its bucket
 * all-reduce) whose exposed and hidden seconds both agree with a measured
 * profile, each within 1 % of the larger of the two or 10 µs, whichever is
 * wider (a profiler's noise), bounds included. Several stages may agree: with
 * one micro-batch stages 1 and 2 issue the same collectives, with one rank no
 * stage communicates.
 * @param o the run without its stage (see {@link DataParallelCommOptions})
 * @param profile the measured seconds per step
 * @returns the stages, ascending ([] when none agrees)
 * @throws RangeError `profile.exposedS must be a finite number >= 0, got -1` (likewise hiddenS), and those of {@link dataParallelCommTime}
 * @example stagesFromProfile({ shardParams: 1e9, dataParallel: 8, microBatches: 4, link: { alphaS: 0, bandwidthBytesPerS: 100e9 }, bytesPerElement: 2, backwardPerMicroBatchS: 0.02, busyPerMicroBatchS: 0.03 },
 *   { exposedS: 0.0325, hiddenS: 0.02 }) // [1]: the all-reduce behind the last backward, then the all-gather that nothing hides
 */
export function stagesFromProfile(o: Omit<DataParallelCommOptions, "zeroStage">, profile: CommProfile): ZeroStage[] {
  for (const k of ["exposedS", "hiddenS"] as const) {
    const v = profile?.[k];
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw new RangeError(`profile.${k} must be a finite number >= 0, got ${String(v)}`);
  }
  const agrees = (want: number, got: number) => Math.abs(want - got) <= Math.max(0.01 * Math.max(want, got), 1e-5);
  return ([0, 1, 2, 3] as const).filter((zeroStage) => {
    const t = dataParallelCommTime({ ...o, zeroStage });
    return agrees(t.exposedS, profile.exposedS) && agrees(t.hiddenS, profile.hiddenS);
  });
}
