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
 * Contract. Given the current loss scale, the growth tracker (PyTorch's
 * `_growth_tracker`: consecutive iterations without inf/NaN since the last
 * growth or backoff) and whether this iteration found an inf/NaN, return the
 * next `{scale, growthTracker}` exactly as `torch.amp.GradScaler.update()`
 * leaves them (the `_amp_update_scale_` kernel). Its rules are derived in the
 * chapter's section "PyTorch's GradScaler"; the trace there (growth_interval 3)
 * is one worked case.
 *
 * Convention: the scale is a float32 tensor in PyTorch, so every scale you
 * return is a float32 value, and a scale that would become infinite is not
 * applied (the scale stays; the tracker is reset to 0 as after any growth).
 * Return a new object.
 *
 * Errors (RangeError, the message naming the field): growthFactor not a finite
 * number > 1; backoffFactor not in (0, 1); growthInterval not an integer >= 1;
 * scale not a positive finite number (Infinity included); growthTracker not an
 * integer >= 0.
 *
 * Source: pytorch/pytorch aten/src/ATen/native/cpu/AmpGradScalerKernels.cpp
 * (CPU) and aten/src/ATen/native/cuda/AmpKernels.cu (CUDA), torch/amp/grad_scaler.py.
 *
 * @param scale current scale, a positive finite float32 value
 * @param growthTracker integer >= 0
 * @param foundInf whether this iteration's gradients had an inf or NaN
 * @param options growthFactor, backoffFactor, growthInterval (PyTorch defaults 2.0, 0.5, 2000)
 * @returns the next `{scale, growthTracker}`
 * @throws {RangeError} e.g. `growthFactor must be a finite number > 1, got 1`, `scale must be a positive finite number, got Infinity`
 * @example gradScalerUpdate(65536, 1999, false, {growthFactor: 2, backoffFactor: 0.5, growthInterval: 2000}) // {scale: 131072, growthTracker: 0}
 */
export function gradScalerUpdate(scale: number, growthTracker: number, foundInf: boolean, options: ScaleOptions): { scale: number; growthTracker: number } {
  return notImplemented("4.2");
}
