import { notImplemented } from "../harness/index.js";

/**
 * Exercise 11.2 — `update_hessian`: fold a GNB gradient into Sophia's curvature state.
 *
 * Return the new exponential moving average of the squared estimator gradient, exactly as the
 * reference implementation's `update_hessian` does (Liuhong99/Sophia `sophia.py`): the old state
 * weighted by β2, the new term by 1 − β2. The state holds the squared gradient WITHOUT the batch
 * size (the step multiplies by it). Do not modify the inputs.
 *
 * Errors (RangeError, message naming the field): β2 outside [0, 1) (`beta2`); `gHat` of another
 * length than `h` (`gHat`); a non-finite entry of gHat (`gHat[i]`).
 * Source: the chapter's section "The algorithm line by line".
 *
 * @param h current state (n numbers)
 * @param gHat the estimator's gradient ĝ (n finite numbers)
 * @param beta2 in [0, 1)
 * @returns the new state, a new array of n numbers
 * @example hessianEma([1, 0], [2, -1], 0.9) // [1.3, 0.1] (up to rounding)
 */
export function hessianEma(h: number[], gHat: number[], beta2: number): number[] {
  return notImplemented("11.2");
}
