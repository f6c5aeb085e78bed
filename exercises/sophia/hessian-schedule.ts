import { notImplemented } from "../harness/index.js";

/**
 * Exercise 11.3 — which steps refresh Sophia's curvature.
 *
 * In the authors' training loop (Liuhong99/Sophia `train_sophiag.py`), the Hessian estimate is
 * computed every k steps, after an ordinary step, with the loop's 0-based step counter. Return the
 * 0-based indices of the steps after which it runs, in a run of `steps` steps, in increasing
 * order. k need not divide `steps`.
 *
 * Errors (RangeError, message naming the field): k not an integer >= 1 (`k`); steps not an
 * integer >= 0 (`steps`).
 * Source: the chapter's section "The algorithm line by line".
 *
 * @param steps integer >= 0
 * @param k integer >= 1
 * @returns a new array of step indices
 * @example hessianSchedule(10, 4) // [3, 7]
 */
export function hessianSchedule(steps: number, k: number): number[] {
  return notImplemented("11.3");
}
