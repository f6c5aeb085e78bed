/**
 * The distance between two gradients the chapter reports: ‖g − ref‖₂ / ‖ref‖₂.
 */

/**
 * Relative L2 error of `g` against `ref`: √(Σ (gᵢ − refᵢ)²) / √(Σ refᵢ²), summed in float64.
 *
 * @param g the gradient under test, P numbers
 * @param ref the reference gradient, P numbers, not all zero
 * @returns a number >= 0 (0 when equal)
 * @throws {RangeError} `g has 3 numbers but ref has 4`; `ref is all zeros: a relative error is undefined`
 * @example relativeError([1, 1], [1, 0]) // 1
 * @see Higham 2002, *Accuracy and Stability of Numerical Algorithms*, §6 (normwise relative error)
 */
export function relativeError(g: ArrayLike<number>, ref: ArrayLike<number>): number {
  if (g.length !== ref.length) throw new RangeError(`g has ${g.length} numbers but ref has ${ref.length}`);
  let num = 0, den = 0;
  for (let i = 0; i < g.length; i++) { num += (g[i] - ref[i]) ** 2; den += ref[i] ** 2; }
  if (den === 0) throw new RangeError("ref is all zeros: a relative error is undefined");
  return Math.sqrt(num / den);
}
