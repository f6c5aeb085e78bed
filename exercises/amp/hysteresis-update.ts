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
 * Exercise 4.4 — DeepSpeed's `DynamicLossScaler.update_scale` with hysteresis.
 *
 * Return the next state (do not modify `state`), with scale factor 2:
 * - overflow: if delayedShift == 1 or curHysteresis == 1, the scale drops to
 *   max(curScale / 2, minScale) — but if curScale already equals minScale,
 *   throw an Error with DeepSpeed's message "Current loss scale already at
 *   minimum - cannot decrease scale anymore. Exiting run."; otherwise only
 *   curHysteresis decreases by 1. Either way lastOverflowIter = curIter.
 * - no overflow: if consecutiveHysteresis, curHysteresis = delayedShift;
 *   stable = curIter − lastOverflowIter − 1; if stable > 0 and
 *   stable % scaleWindow == 0, the scale doubles, and (without
 *   consecutiveHysteresis) curHysteresis = delayedShift.
 * - finally curIter + 1.
 * Read: the chapter's "DeepSpeed's DynamicLossScaler" section and
 * deepspeed/runtime/fp16/loss_scaler.py.
 *
 * @param state the current state
 * @param overflow whether this iteration's gradients overflowed
 * @param options scaleWindow, minScale, delayedShift, consecutiveHysteresis
 * @returns the next state
 * @example hysteresisUpdate({curScale: 65536, curIter: 0, lastOverflowIter: -1, curHysteresis: 2}, true, {scaleWindow: 100, minScale: 1, delayedShift: 2, consecutiveHysteresis: false})
 * // {curScale: 65536, curIter: 1, lastOverflowIter: 0, curHysteresis: 1}
 */
export function hysteresisUpdate(state: ScalerState, overflow: boolean, options: HysteresisOptions): ScalerState {
  return notImplemented("4.4");
}
