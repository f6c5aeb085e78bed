/**
 * DeepSpeed's loss scalers (deepspeed/runtime/fp16/loss_scaler.py): the
 * dynamic one with hysteresis, and the static one used when `loss_scale > 0`.
 * Two releases differ in when the scale grows (see {@link DeepSpeedRelease}).
 */

/**
 * Which DeepSpeed the simulation follows. `"current"`: v0.17.1 and later, up to
 * main at edaa722 (2026-08-22): PR #6976 (commit e440506, first released in
 * v0.17.1) made growth wait for `stable_interval = cur_iter − last_overflow_iter − 1`
 * clean iterations, so the scale doubles on the (window + 1)-th consecutive clean
 * step (then every window more), and brought the pydantic `DeepSpeedFP16Config` (min_loss_scale: int).
 * `"v0.17.0"`: the last release before it: growth when
 * `(cur_iter − last_overflow_iter) % scale_window == 0`, i.e. on the window-th
 * clean step, and no type check on the fp16 keys.
 *
 * @example DEEPSPEED_RELEASES // ["current", "v0.17.0"]
 * @see deepspeedai/DeepSpeed commit e440506 "Improve overflow handling in ZeRO (#6976)", deepspeed/runtime/fp16/loss_scaler.py `update_scale`
 */
export type DeepSpeedRelease = "current" | "v0.17.0";

/** The releases {@link DynamicLossScaler} can follow, newest first. @example DEEPSPEED_RELEASES[0] // "current" @see {@link DeepSpeedRelease} */
export const DEEPSPEED_RELEASES: readonly DeepSpeedRelease[] = Object.freeze(["current", "v0.17.0"] as const);

/** Options of {@link DynamicLossScaler}, with DeepSpeed's constructor argument names in the comments. */
export interface DynamicLossScalerOptions {
  /** `init_scale`: the first scale, e.g. 2^initial_scale_power. */
  initScale: number;
  /** `scale_window`: integer >= 1; the scale first doubles on the (window + 1)-th consecutive overflow-free iteration ("current") or the window-th ("v0.17.0"), then every window more. */
  scaleWindow: number;
  /** `min_scale`: the floor of the scale, > 0. */
  minScale: number;
  /** `delayed_shift` (config key `hysteresis`): overflows tolerated before the scale drops; integer >= 1. */
  delayedShift: number;
  /** `consecutive_hysteresis`: refill the hysteresis after every overflow-free iteration (else only at growth). */
  consecutiveHysteresis: boolean;
  /** `raise_error_at_min_scale`: throw when an overflow arrives with the scale already at `minScale`. Default true. */
  raiseErrorAtMinScale?: boolean;
  /** `scale_factor`: fixed at 2.0 in DeepSpeed; exposed for the figures. Must be > 1. */
  scaleFactor?: number;
  /** Whose growth rule: "current" (≥ v0.17.1, the default) or "v0.17.0"; see {@link DeepSpeedRelease}. */
  release?: DeepSpeedRelease;
}

/** The mutable state of a {@link DynamicLossScaler}, as DeepSpeed's attributes. */
export interface DynamicLossScalerState {
  curScale: number;
  curIter: number;
  lastOverflowIter: number;
  curHysteresis: number;
}

/**
 * DeepSpeed's message when an overflow arrives with the scale already at `min_scale`.
 *
 * @example
 * MIN_SCALE_ERROR.startsWith("Current loss scale already at minimum"); // true
 * @see deepspeedai/DeepSpeed deepspeed/runtime/fp16/loss_scaler.py `DynamicLossScaler.update_scale`
 */
export const MIN_SCALE_ERROR = "Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.";

/**
 * Checks DynamicLossScaler options; throws a RangeError naming the field.
 * @param o the options (initScale, scaleWindow, minScale, delayedShift, scaleFactor)
 * @returns nothing; returns normally when the options are valid
 * @throws {RangeError} `initScale must be a positive finite number, got 0`; `scaleWindow must be an integer >= 1, got -5`;
 *   `minScale must be a positive finite number, got 0`; `delayedShift (hysteresis) must be an integer >= 1, got 0`;
 *   `scaleFactor must be a finite number > 1, got 1`; `release must be one of current, v0.17.0, got v0.16`
 * @example
 * validateDynamicLossScalerOptions({ initScale: 2 ** 16, scaleWindow: -5, minScale: 1, delayedShift: 2, consecutiveHysteresis: false });
 * // throws `scaleWindow must be an integer >= 1, got -5`
 * @see deepspeedai/DeepSpeed deepspeed/runtime/fp16/loss_scaler.py `DynamicLossScaler.__init__`; https://www.deepspeed.ai/docs/config-json/#fp16-training-options
 */
export function validateDynamicLossScalerOptions(o: DynamicLossScalerOptions): void {
  if (!(o.initScale > 0 && Number.isFinite(o.initScale))) throw new RangeError(`initScale must be a positive finite number, got ${o.initScale}`);
  if (!(Number.isInteger(o.scaleWindow) && o.scaleWindow >= 1)) throw new RangeError(`scaleWindow must be an integer >= 1, got ${o.scaleWindow}`);
  if (!(o.minScale > 0 && Number.isFinite(o.minScale))) throw new RangeError(`minScale must be a positive finite number, got ${o.minScale}`);
  if (!(Number.isInteger(o.delayedShift) && o.delayedShift >= 1)) throw new RangeError(`delayedShift (hysteresis) must be an integer >= 1, got ${o.delayedShift}`);
  const f = o.scaleFactor ?? 2;
  if (!(f > 1 && Number.isFinite(f))) throw new RangeError(`scaleFactor must be a finite number > 1, got ${f}`);
  if (o.release !== undefined && !DEEPSPEED_RELEASES.includes(o.release)) throw new RangeError(`release must be one of ${DEEPSPEED_RELEASES.join(", ")}, got ${String(o.release)}`);
}

/**
 * One `DynamicLossScaler.update_scale(overflow)`, as a pure function.
 *
 * Overflow: if `delayedShift == 1` or `curHysteresis == 1`, the scale halves
 * (floored at `minScale`; if it already equals `minScale` and
 * `raiseErrorAtMinScale`, throws); otherwise only `curHysteresis` decreases.
 * Either way `lastOverflowIter ← curIter`.
 * No overflow: with `consecutiveHysteresis`, `curHysteresis ← delayedShift`;
 * then the growth test of the release, and on growth the scale doubles (and,
 * without consecutiveHysteresis, the hysteresis refills). Finally `curIter += 1`.
 * - "current" (DeepSpeed ≥ 0.17.1): `stable = curIter − lastOverflowIter − 1`;
 *   grow if `stable > 0` and `stable % scaleWindow == 0`. The first doubling
 *   comes on the (scaleWindow + 1)-th consecutive clean iteration, from the start
 *   (lastOverflowIter = −1) and after an overflow alike; later ones every
 *   scaleWindow clean iterations (a growth does not move lastOverflowIter):
 *   window 3 grows at iterations 3, 6, 9, … of a clean run.
 * - "v0.17.0": grow if `(curIter − lastOverflowIter) % scaleWindow == 0`: on
 *   the scaleWindow-th clean iteration (window 3: iterations 2, 5, …).
 *
 * @param state `{curScale, curIter, lastOverflowIter, curHysteresis}`
 * @param overflow whether this iteration's gradients had an inf/NaN
 * @param options the scaler's options (`release` picks the growth rule; default "current")
 * @returns the next state (the input is not modified)
 * @throws {Error} {@link MIN_SCALE_ERROR} when the scale is already at the minimum
 * @example dynamicLossScaleUpdate({curScale: 65536, curIter: 0, lastOverflowIter: -1, curHysteresis: 2}, true, {initScale: 65536, scaleWindow: 100, minScale: 1, delayedShift: 2, consecutiveHysteresis: false})
 * // {curScale: 65536, curIter: 1, lastOverflowIter: 0, curHysteresis: 1}: the first overflow only spends hysteresis
 * @example dynamicLossScaleUpdate({curScale: 8, curIter: 3, lastOverflowIter: -1, curHysteresis: 1}, false, {initScale: 8, scaleWindow: 3, minScale: 1, delayedShift: 1, consecutiveHysteresis: false}).curScale
 * // 16: the 4th clean iteration (window + 1) under the current rule; with release "v0.17.0" the scale had grown one iteration earlier
 * @see deepspeedai/DeepSpeed deepspeed/runtime/fp16/loss_scaler.py `DynamicLossScaler.update_scale` (main; v0.17.0 for the older rule); PR #6976 (commit e440506)
 */
export function dynamicLossScaleUpdate(state: DynamicLossScalerState, overflow: boolean, options: DynamicLossScalerOptions): DynamicLossScalerState {
  const s = { ...state };
  const factor = options.scaleFactor ?? 2;
  const raise = options.raiseErrorAtMinScale ?? true;
  if (overflow) {
    if (options.delayedShift === 1 || s.curHysteresis === 1) {
      if (s.curScale === options.minScale && raise) throw new Error(MIN_SCALE_ERROR);
      s.curScale = Math.max(s.curScale / factor, options.minScale);
    } else {
      s.curHysteresis -= 1;
    }
    s.lastOverflowIter = s.curIter;
  } else {
    if (options.consecutiveHysteresis) s.curHysteresis = options.delayedShift;
    const stable = s.curIter - s.lastOverflowIter - 1; // clean iterations before this one since the last overflow
    const grow = (options.release ?? "current") === "v0.17.0" ? (s.curIter - s.lastOverflowIter) % options.scaleWindow === 0 : stable > 0 && stable % options.scaleWindow === 0;
    if (grow) {
      if (!options.consecutiveHysteresis) s.curHysteresis = options.delayedShift;
      s.curScale *= factor;
    }
  }
  s.curIter += 1;
  return s;
}

/**
 * DeepSpeed's dynamic loss scaler: halves the scale after `hysteresis`
 * overflows; doubles it first on the (scaleWindow + 1)-th consecutive overflow-free
 * iteration, then every scaleWindow more (DeepSpeed ≥ 0.17.1; with
 * `release: "v0.17.0"`, on the window-th and every window more).
 * @example
 * const s = new DynamicLossScaler({initScale: 2 ** 16, scaleWindow: 100, minScale: 1, delayedShift: 2, consecutiveHysteresis: false});
 * s.updateScale(true); s.lossScale; // 65536 (hysteresis 2 → 1)
 * s.updateScale(true); s.lossScale; // 32768
 * @see deepspeedai/DeepSpeed deepspeed/runtime/fp16/loss_scaler.py
 */
export class DynamicLossScaler {
  readonly dynamic = true;
  readonly options: Readonly<DynamicLossScalerOptions>;
  state: DynamicLossScalerState;

  /** @throws {RangeError} on invalid options (see {@link validateDynamicLossScalerOptions}) */
  constructor(options: DynamicLossScalerOptions) {
    validateDynamicLossScalerOptions(options);
    this.options = Object.freeze({ ...options });
    this.state = { curScale: options.initScale, curIter: 0, lastOverflowIter: -1, curHysteresis: options.delayedShift };
  }

  /** The current loss scale (DeepSpeed's `loss_scale` property). */
  get lossScale(): number {
    return this.state.curScale;
  }

  /** loss · lossScale (DeepSpeed's `scale_loss`). */
  scaleLoss(loss: number): number {
    return loss * this.state.curScale;
  }

  /** Applies {@link dynamicLossScaleUpdate}; throws {@link MIN_SCALE_ERROR} at the floor. */
  updateScale(overflow: boolean): void {
    this.state = dynamicLossScaleUpdate(this.state, overflow, this.options);
  }
}

/**
 * DeepSpeed's static `LossScaler`: a fixed scale (config `loss_scale > 0`);
 * `updateScale` does nothing and overflow is never reported.
 * @param curScale the fixed loss scale (default 1), a positive finite number
 * @throws {RangeError} `scale must be a positive finite number, got 0`
 * @example new LossScaler(128).scaleLoss(0.5) // 64
 * @see deepspeedai/DeepSpeed deepspeed/runtime/fp16/loss_scaler.py `LossScaler`
 */
export class LossScaler {
  readonly dynamic = false;
  /** @throws {RangeError} `scale must be a positive finite number, got 0` */
  constructor(readonly curScale: number = 1) {
    if (!(curScale > 0 && Number.isFinite(curScale))) throw new RangeError(`scale must be a positive finite number, got ${curScale}`);
  }
  get lossScale(): number {
    return this.curScale;
  }
  scaleLoss(loss: number): number {
    return loss * this.curScale;
  }
  updateScale(_overflow: boolean): void {}
}
