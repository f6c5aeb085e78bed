import { notImplemented } from "../harness/index.js";

/** DeepSpeed's DynamicLossScaler state. */
export interface ScalerState {
  curScale: number;
  curIter: number;
  /** −1 before the first overflow. */
  lastOverflowIter: number;
  curHysteresis: number;
}

/** The scaler's options (config keys in parentheses). */
export interface HysteresisOptions {
  /** (loss_scale_window) integer >= 1. */
  scaleWindow: number;
  /** (min_loss_scale) > 0. */
  minScale: number;
  /** (hysteresis) integer >= 1: overflows tolerated before the scale drops. */
  delayedShift: number;
  /** (consecutive_hysteresis) refill the hysteresis after every clean iteration. */
  consecutiveHysteresis: boolean;
}

/**
 * Exercise 4.5 — DeepSpeed's `DynamicLossScaler.update_scale` with hysteresis.
 *
 * Contract. Return the state that one call of
 * `DynamicLossScaler.update_scale(overflow)` leaves, as DeepSpeed ≥ 0.17.1
 * does it (deepspeed/runtime/fp16/loss_scaler.py on main; the growth rule of
 * PR #6976), with DeepSpeed's fixed scale factor 2 and
 * `raise_error_at_min_scale` true. The chapter's section "DeepSpeed's
 * DynamicLossScaler and the notes' config" derives the rules: what an
 * overflow spends, when the scale halves and where it stops, on which clean
 * iteration it doubles (counted from the start and from the last overflow),
 * and when the hysteresis refills. Do not modify `state`; return a new object.
 *
 * Errors: an overflow that would lower the scale (its hysteresis is spent:
 * curHysteresis is 1, or delayedShift is 1) while the scale is already at
 * `minScale` throws an Error with DeepSpeed's message "Current loss scale
 * already at minimum - cannot decrease scale anymore. Exiting run."; an
 * overflow that only spends hysteresis does not, even at `minScale`.
 *
 * @param state the current state; a fresh scaler is `{curScale: init, curIter: 0, lastOverflowIter: -1, curHysteresis: delayedShift}`
 * @param overflow whether this iteration's gradients overflowed
 * @param options scaleWindow, minScale, delayedShift, consecutiveHysteresis
 * @returns the next state
 * @throws {Error} `Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.`
 * @example hysteresisUpdate({curScale: 65536, curIter: 0, lastOverflowIter: -1, curHysteresis: 2}, true, {scaleWindow: 100, minScale: 1, delayedShift: 2, consecutiveHysteresis: false})
 * // {curScale: 65536, curIter: 1, lastOverflowIter: 0, curHysteresis: 1}
 */
export function hysteresisUpdate(state: ScalerState, overflow: boolean, options: HysteresisOptions): ScalerState {
  return notImplemented("4.5");
}
