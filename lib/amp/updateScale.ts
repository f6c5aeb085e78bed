/**
 * The scale update of PyTorch's GradScaler, as a pure function.
 */

/** Growth options of a GradScaler (names as in `torch.amp.GradScaler`). */
export interface ScaleUpdateOptions {
  /** Multiplier after `growthInterval` consecutive steps without inf/NaN; > 1. Default 2.0. */
  growthFactor: number;
  /** Multiplier after a step with inf/NaN; in (0, 1). Default 0.5. */
  backoffFactor: number;
  /** Consecutive unskipped steps before growing; integer >= 1. Default 2000. */
  growthInterval: number;
}

/**
 * PyTorch's defaults: `GradScaler(init_scale=2.**16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000)`.
 *
 * @example
 * GRAD_SCALER_DEFAULTS.initScale; // 65536
 * @see PyTorch torch.amp.GradScaler docs; pytorch/pytorch torch/amp/grad_scaler.py `GradScaler.__init__`
 */
export const GRAD_SCALER_DEFAULTS: Readonly<ScaleUpdateOptions & { initScale: number }> = Object.freeze({
  initScale: 2 ** 16,
  growthFactor: 2.0,
  backoffFactor: 0.5,
  growthInterval: 2000,
});

/**
 * Checks GradScaler options; throws a RangeError naming the field.
 *
 * PyTorch asserts `growth_factor > 1.0` and `backoff_factor < 1.0` only; this
 * course also rejects a backoff <= 0 (it would zero or flip the scale) and a
 * growth interval that is not an integer >= 1 (PyTorch's kernel compares
 * `growth_tracker + 1 == growth_interval`, so such a value silently never grows).
 * @param o growthFactor, backoffFactor, growthInterval
 * @returns nothing; returns normally when the options are valid
 * @throws {RangeError} `growthFactor must be a finite number > 1, got 1`; `backoffFactor must be in (0, 1), got 0`;
 *   `growthInterval must be an integer >= 1, got 0.5`
 * @example
 * validateScaleUpdateOptions(GRAD_SCALER_DEFAULTS); // undefined (valid)
 * validateScaleUpdateOptions({ ...GRAD_SCALER_DEFAULTS, growthFactor: 1 }); // throws `growthFactor must be a finite number > 1, got 1`
 * @see pytorch/pytorch torch/amp/grad_scaler.py `GradScaler.__init__` (the growth/backoff assertions) and aten/src/ATen/native/cpu/AmpGradScalerKernels.cpp
 */
export function validateScaleUpdateOptions(o: ScaleUpdateOptions): void {
  if (!(typeof o.growthFactor === "number" && o.growthFactor > 1 && Number.isFinite(o.growthFactor))) {
    throw new RangeError(`growthFactor must be a finite number > 1, got ${o.growthFactor}`);
  }
  if (!(typeof o.backoffFactor === "number" && o.backoffFactor > 0 && o.backoffFactor < 1)) {
    throw new RangeError(`backoffFactor must be in (0, 1), got ${o.backoffFactor}`);
  }
  if (!(Number.isInteger(o.growthInterval) && o.growthInterval >= 1)) {
    throw new RangeError(`growthInterval must be an integer >= 1, got ${o.growthInterval}`);
  }
}

/**
 * One `GradScaler.update()`: the semantics of PyTorch's `_amp_update_scale_`
 * kernel, with the scale kept in float32 as PyTorch keeps it.
 *
 * - inf/NaN found: scale ← fp32(scale · backoffFactor), growthTracker ← 0;
 * - otherwise successful = growthTracker + 1; if successful = growthInterval:
 *   scale ← fp32(scale · growthFactor) unless that is ±Infinity (then the
 *   scale stays), growthTracker ← 0; else growthTracker ← successful.
 *
 * @param scale current loss scale (a float32 value, > 0)
 * @param growthTracker consecutive unskipped steps so far, integer in [0, growthInterval)
 * @param foundInf whether this iteration's gradients had an inf or NaN
 * @param options growthFactor, backoffFactor, growthInterval
 * @returns `{scale, growthTracker}` for the next iteration
 * @throws {RangeError} on invalid options, a scale that is not a positive finite number, or a negative/non-integer tracker
 * @example updateScale(65536, 1999, false, GRAD_SCALER_DEFAULTS) // {scale: 131072, growthTracker: 0}
 * @example updateScale(65536, 1500, true, GRAD_SCALER_DEFAULTS) // {scale: 32768, growthTracker: 0}
 * @see pytorch/pytorch aten/src/ATen/native/cpu/AmpGradScalerKernels.cpp `_amp_update_scale_cpu_kernel`; torch/amp/grad_scaler.py `update`
 */
export function updateScale(scale: number, growthTracker: number, foundInf: boolean, options: ScaleUpdateOptions): { scale: number; growthTracker: number } {
  validateScaleUpdateOptions(options);
  if (!(typeof scale === "number" && scale > 0 && Number.isFinite(scale))) throw new RangeError(`scale must be a positive finite number, got ${scale}`);
  if (!(Number.isInteger(growthTracker) && growthTracker >= 0)) throw new RangeError(`growthTracker must be an integer >= 0, got ${growthTracker}`);
  if (foundInf) return { scale: Math.fround(scale * options.backoffFactor), growthTracker: 0 };
  const successful = growthTracker + 1; // this step succeeded: count it before comparing
  if (successful === options.growthInterval) {
    const grown = Math.fround(scale * options.growthFactor);
    return { scale: Number.isFinite(grown) ? grown : scale, growthTracker: 0 };
  }
  return { scale, growthTracker: successful };
}
