/**
 * How far an array is from a float32 reference, in units of the reference's
 * largest value: the norm-wise error the course's Adam checks use.
 */

/**
 * max |a − ref| / (2⁻²³ · max(max |ref|, floor)): float32 ulps of the array's
 * scale. An elementwise relative error is meaningless where a value cancels to
 * near 0 (Adam's m and θ do); `floor` is the size of what was added (lr for θ,
 * the largest |g| for m, its square for v).
 *
 * @param a the values to check
 * @param ref the reference, same length
 * @param floor a lower bound of the scale (≥ 0; default 0)
 * @returns ulps (0 when equal; Infinity if a value is NaN or the lengths differ)
 * @example normwiseUlps(Float32Array.of(1, 2 + 2 ** -22), Float32Array.of(1, 2)) // 1: 2⁻²² off at scale 2, one float32 ulp of 2
 * @see Higham 2002, *Accuracy and Stability of Numerical Algorithms*, §1.5 (norm-wise error)
 */
export function normwiseUlps(a: ArrayLike<number>, ref: ArrayLike<number>, floor = 0): number {
  if (a.length !== ref.length) return Infinity;
  let scale = floor, worst = 0;
  for (let i = 0; i < ref.length; i++) scale = Math.max(scale, Math.abs(ref[i]));
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - ref[i]);
    if (Number.isNaN(d)) return Infinity;
    worst = Math.max(worst, d);
  }
  return worst === 0 ? 0 : worst / (2 ** -23 * scale);
}
