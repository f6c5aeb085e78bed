import { notImplemented } from "../harness/index.js";

/** The options of Transformer Engine's `DelayedScaling` that this exercise uses (TE's defaults in brackets). */
export interface DelayedRecipe {
  /** Integer; the scale is divided by 2^margin [0]. */
  margin: number;
  /** Steps of amax kept, integer >= 1 [1024]. */
  amaxHistoryLen: number;
  /** "max": the largest amax of the history; "most_recent": this step's ["max"]. */
  amaxComputeAlgo: "max" | "most_recent";
}

/** The per-tensor state TE keeps (and checkpoints). */
export interface DelayedState {
  /** amaxHistoryLen amaxes: slot 0 is the current step's (0 after every update), slots 1 … L−1 the earlier steps, oldest first. */
  amaxHistory: number[];
  scale: number;
}

/**
 * Exercise 4.6 — delayed scaling over a run.
 *
 * What: replay Transformer Engine's delayed scaling for one FP8 tensor whose
 * amax at step t is `amaxes[t]`: the scale each step casts with, and whether
 * that step overflowed (its largest value, times the scale, did not fit the
 * format). The chapter's section "Delayed scaling" derives the rule; its trace
 * table is one worked case.
 *
 * Conventions (TE's PyTorch default path, `amax_and_scale_update_after_reduction`):
 * - a tensor starts at scale 1 with a history of zeros, unless `initial` gives the state to resume from;
 * - step t casts with the current scale; its amax is then max-ed into slot 0;
 * - after each step the history rolls — this step's amax moves to the end and the
 *   oldest leaves — and the window's amax ("max" or "most_recent") gives the next
 *   scale fp32(fp32(fp8Max · 2^−margin) / amax), every result a float32;
 * - a step whose amax is 0 does not roll and keeps the scale; an amax that is not
 *   finite keeps the scale; a scale that overflows float32 becomes the largest
 *   float32 (3.4028234663852886e38);
 * - overflow: fp32(amax · scale), rounded to the format (to nearest, ties to even),
 *   lands beyond its largest value (448 for E4M3, 57344 for E5M2), so the
 *   saturating cast clipped it. An infinite amax overflows.
 * Return new arrays and objects.
 *
 * Errors (RangeError naming the field): an amax that is NaN or negative
 * (`amaxes[3] …`); an `initial.amaxHistory` whose length is not amaxHistoryLen;
 * amaxHistoryLen not an integer >= 1; margin not an integer.
 *
 * Source: NVIDIA/TransformerEngine transformer_engine/common/recipe/delayed_scaling.cu
 * and transformer_engine/pytorch/quantization.py.
 *
 * @param amaxes (T) per-step amaxes, >= 0 or +Infinity
 * @param recipe margin, amaxHistoryLen, amaxComputeAlgo
 * @param format "fp8-e4m3" or "fp8-e5m2"
 * @param initial optional state to resume from
 * @returns the scale of each step, whether each step overflowed, and the state after the last update
 * @throws {RangeError} e.g. `amaxes[1] must be an amax >= 0, got NaN`
 * @example delayedScalingTrace([100, 100, 200], { margin: 0, amaxHistoryLen: 1, amaxComputeAlgo: "max" }, "fp8-e4m3")
 *   // { scale: [1, 4.480000019073486, 4.480000019073486], overflow: [false, false, true], final: { amaxHistory: [0], scale: 2.240000009536743 } }
 */
export function delayedScalingTrace(amaxes: number[], recipe: DelayedRecipe, format: "fp8-e4m3" | "fp8-e5m2", initial?: DelayedState): { scale: number[]; overflow: boolean[]; final: DelayedState } {
  return notImplemented("4.6");
}
