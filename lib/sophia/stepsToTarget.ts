/**
 * Steps to a target loss, read from a noisy per-step training-loss curve.
 */

/**
 * The trailing mean of the last `window` values at every step (fewer at the start).
 * @param losses per-step losses; @param window integer >= 1
 * @returns new array, same length
 * @throws {RangeError} `window must be an integer >= 1, got 0`
 * @example trailingMean([4, 2, 0], 2); // [4, 3, 1]
 * @see any moving-average smoother (what TensorBoard's and W&B's loss plots apply, without their exponential weights)
 */
export function trailingMean(losses: readonly number[], window: number): number[] {
  if (!(Number.isInteger(window) && window >= 1)) throw new RangeError(`window must be an integer >= 1, got ${window}`);
  const out: number[] = [];
  for (let i = 0; i < losses.length; i++) {
    let s = 0;
    const lo = Math.max(0, i - window + 1);
    for (let j = lo; j <= i; j++) s += losses[j]!; // summed afresh: no running-sum drift
    out.push(s / (i - lo + 1));
  }
  return out;
}

/**
 * The first step (1-based count of steps taken) whose trailing mean loss is <= target, or null if never.
 * @param losses per-step losses; @param target the loss to reach; @param window smoothing window (default 20)
 * @returns steps taken, or null
 * @throws {RangeError} as {@link trailingMean}; `target must be finite, got NaN`
 * @example stepsToTarget([5, 4, 3, 2, 1], 3, 1); // 3
 * @see Liu et al. 2023, Figure 1 / §3.2 (Sophia "reaches the same loss with 50% fewer steps": the quantity measured here)
 */
export function stepsToTarget(losses: readonly number[], target: number, window = 20): number | null {
  if (!Number.isFinite(target)) throw new RangeError(`target must be finite, got ${target}`);
  const m = trailingMean(losses, window);
  const i = m.findIndex((v) => v <= target);
  return i < 0 ? null : i + 1;
}
