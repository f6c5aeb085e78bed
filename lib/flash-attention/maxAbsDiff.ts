/**
 * Helpers shared by this chapter's tests and graders: the largest absolute
 * difference of two tensors (treating equal infinities as equal).
 */

/**
 * max |a − b| over the elements; 0 where both are the same infinity; Infinity
 * if the lengths differ or one side is NaN or a lone infinity.
 * @param a first tensor
 * @param b second tensor
 * @returns the largest absolute difference
 * @example maxAbsDiff([1, -Infinity], [1.5, -Infinity]) // 0.5
 * @see referenceAttention
 */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Infinity;
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    const e = Math.abs(a[i] - b[i]);
    if (Number.isNaN(e)) return Infinity;
    m = Math.max(m, e);
  }
  return m;
}
