import { notImplemented } from "../harness/index.js";

/**
 * Exercise 11.3 — the ρ that gives a win rate.
 *
 * What: the authors tune ρ so that the share of coordinates whose update is
 * not clipped, the code's `train/win_rate`, stays between 0.1 and 0.5 (their
 * README). Given the first moment m, the curvature state h and bs of a step,
 * return the threshold ρ* of a target share: every ρ > ρ* gives a win rate of
 * at least `target`, and no ρ ≤ ρ* does.
 * Convention: the code's win rate (train_sophiag.py at a7e1572): the share of
 * coordinates with |m| < ρ·bs·h, strictly, with no ε; a share c/n is compared
 * with `target` in float64 (c/n ≥ target). Each coordinate's own threshold is
 * |m| / (bs·h) (in that order of operations; the answer is graded with a
 * relative tolerance of 1e−12). The page's "The algorithm line by line" gives
 * the update whose clip this counts.
 * Input: `m` and `h`, arrays of n finite numbers (h any sign; n up to a
 * million); `bs` > 0; `target` in [0, 1]. Not modified.
 * Output: ρ*, a number >= 0 (0 when target is 0 or every ρ > 0 reaches it);
 * null when no ρ reaches the target.
 * Errors (RangeError, message naming the field): `target` outside [0, 1];
 * `bs` not a finite number > 0; `h` of another length than `m`; a
 * non-finite `m[i]` or `h[i]`.
 * Example: rhoForWinRate([0.1, 0.5, 0.3], [1, 1, 0], 1, 0.5) → 0.5 (above
 * 0.5 two of the three coordinates win; the third never does).
 *
 * @param m first moment (n)
 * @param h curvature state (n)
 * @param bs tokens per step
 * @param target the win rate to reach, in [0, 1]
 * @returns the threshold ρ*, or null
 * @throws {RangeError} as above
 */
export function rhoForWinRate(m: number[], h: number[], bs: number, target: number): number | null {
  return notImplemented("11.3");
}
