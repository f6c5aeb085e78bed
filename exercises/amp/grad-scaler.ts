import { notImplemented } from "../harness/index.js";

/** What the scaler sees of an optimizer (as in lib/amp): its parameters' gradients and its step. */
export interface ScalerOptimizer {
  /** One fp32 gradient per parameter, or null for a parameter without a gradient; unscale in place. */
  readonly grads: readonly (Float32Array | null)[];
  /** Runs the optimizer on the current gradients. */
  step(): void;
}

/** Constructor options; every field optional, with torch.amp.GradScaler's defaults. */
export interface GradScalerOptions {
  initScale?: number;
  growthFactor?: number;
  backoffFactor?: number;
  growthInterval?: number;
}

/** Your scaler: torch.amp.GradScaler's per-iteration methods and two getters. */
export interface StudentGradScaler {
  /** loss × S, where S is the current scale as a float32 value, and the product rounded to float32. */
  scale(loss: number): number;
  /** Unscales this optimizer's gradients in place and records whether any was inf/NaN. */
  unscale_(optimizer: ScalerOptimizer): void;
  /** Unscales if `unscale_` was not called this iteration; calls `optimizer.step()` only when no gradient was inf/NaN. */
  step(optimizer: ScalerOptimizer): void;
  /** Updates S for the next iteration from this iteration's inf/NaN record. */
  update(): void;
  /** The current S. */
  getScale(): number;
  /** PyTorch's `_growth_tracker`: clean iterations counted since the last growth or backoff. */
  getGrowthTracker(): number;
}

/**
 * Exercise 4.4 (build it) — your GradScaler drives the course's fp16 training.
 *
 * Contract. Return a new scaler object with the methods of
 * {@link StudentGradScaler} that behaves as `torch.amp.GradScaler` does, with
 * one optimizer per iteration:
 * - defaults: the ones of torch.amp.GradScaler (torch/amp/grad_scaler.py);
 *   the scale is a float32 value, and `scale(loss)` returns the float32
 *   product fp32(loss × S) (PyTorch multiplies a float32 loss tensor by the
 *   float32 scale tensor): `createGradScaler({initScale: 3.3}).scale(2)` is
 *   fp32(2 × fp32(3.3)) = 6.599999904632568;
 * - `unscale_` and `step` follow GradScaler's semantics: the multiplier, the
 *   dtype of the products, which values the inf/NaN test looks at, when
 *   `optimizer.step()` runs; `null` gradients are ignored;
 * - `update` follows `_amp_update_scale_` (your exercise 4.2): when the
 *   tracker reaches growthInterval and S × growthFactor is infinite in
 *   float32, S stays but the tracker is still reset to 0;
 * - errors, as PyTorch's messages: a second `unscale_` in one iteration throws
 *   an Error "unscale_() has already been called on this optimizer since the
 *   last update()."; a second `step` throws "step() has already been called
 *   since the last update()."; `update()` in an iteration in which no
 *   gradient was unscaled (neither `unscale_` nor `step` ran) throws an Error
 *   "No inf checks were recorded prior to update." and changes nothing;
 *   bad options (initScale not a positive finite
 *   number, growthFactor not a finite number > 1, backoffFactor not in (0, 1),
 *   growthInterval not an integer >= 1) throw a RangeError naming the option.
 *
 * How it is graded: the course's training loop (lib/nn's character model in
 * fp16, lib/amp's `trainWithGradScaler`, the loop of the chapter's section
 * "Build it: your GradScaler trains the model") runs with your scaler through
 * overflows; its loss-scale trace, its skipped steps and its final weights
 * must equal the run with the course's own GradScaler. Smaller checks of each
 * method give partial credit. Derivations: the chapter's sections "PyTorch's
 * GradScaler" and "Unscale, then check; unscale before clipping". Do not read
 * lib/amp/GradScaler.ts, updateScale.ts or unscaleGrads.ts before solving.
 *
 * @param options initScale, growthFactor, backoffFactor, growthInterval (all optional)
 * @returns a new scaler
 * @throws {RangeError} e.g. `growthFactor must be a finite number > 1, got 1`
 * @example
 * const s = createGradScaler({ growthInterval: 1 });
 * s.scale(0.5); // 32768
 * const opt = { grads: [Float32Array.of(65536)], step() {} };
 * s.step(opt); s.update(); // opt.grads[0] is now [1]; no inf, so opt.step() ran
 * s.getScale(); // 131072 (one clean step of an interval of 1)
 */
export function createGradScaler(options?: GradScalerOptions): StudentGradScaler {
  return notImplemented("4.4");
}
