import { notImplemented } from "../harness/index.js";

/** GradScaler's growth options, as in `torch.amp.GradScaler`. */
export interface ScaleOptions {
  /** > 1 (PyTorch default 2.0). */
  growthFactor: number;
  /** In (0, 1) (default 0.5). */
  backoffFactor: number;
  /** Integer >= 1 (default 2000). */
  growthInterval: number;
}

/**
 * Exercise 4.2 — `GradScaler.update()` as a pure function.
 *
 * Given the current loss scale, the growth tracker (consecutive steps
 * without inf/NaN so far) and whether this iteration found an inf/NaN,
 * return the next `{scale, growthTracker}` as PyTorch's `_amp_update_scale_`
 * kernel does:
 * - inf/NaN found: scale × backoffFactor, tracker reset to 0;
 * - otherwise this step counts: successful = tracker + 1; when it equals
 *   growthInterval, scale × growthFactor and tracker 0; else tracker = successful.
 *
 * Edge cases: the scale is a float32 tensor in PyTorch, so round every new
 * scale with `Math.fround`; a grown scale that would be Infinity is not
 * applied (the scale stays, the tracker still resets). Throw a RangeError
 * naming the option when growthFactor <= 1, backoffFactor is not in (0, 1),
 * or growthInterval is not an integer >= 1.
 * Read: the chapter's "GradScaler" section; pytorch/pytorch
 * aten/src/ATen/native/cpu/AmpGradScalerKernels.cpp.
 *
 * @param scale current scale, a positive float32 value
 * @param growthTracker integer >= 0
 * @param foundInf whether this iteration's gradients had an inf or NaN
 * @param options growthFactor, backoffFactor, growthInterval
 * @returns the next `{scale, growthTracker}`
 * @example gradScalerUpdate(65536, 1999, false, {growthFactor: 2, backoffFactor: 0.5, growthInterval: 2000}) // {scale: 131072, growthTracker: 0}
 */
export function gradScalerUpdate(scale: number, growthTracker: number, foundInf: boolean, options: ScaleOptions): { scale: number; growthTracker: number } {
  return notImplemented("4.2");
}
