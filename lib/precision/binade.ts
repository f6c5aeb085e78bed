/**
 * Exact binade of a positive number: the integer e with 2^e ≤ a < 2^(e+1).
 *
 * `Math.log2` may be off by one ulp near powers of two, so its floor is
 * corrected by comparing with exact powers of two (2 ** e is exact for every
 * integer e in [−1074, 1023]).
 * @param a a positive finite number (float64, subnormals included)
 * @returns floor(log2(a)), exactly
 * @throws {RangeError} `a must be a positive finite number, got 0`
 * @example binade(1) // 0
 * @example binade(65504) // 15
 * @example binade(2 ** -1074) // -1074
 * @see IEEE 754-2008 §3.3 (a binade: the numbers with one exponent); ECMA-262 `Math.log2` is "implementation-approximated", hence the correction
 */
export function binade(a: number): number {
  if (!(a > 0) || !Number.isFinite(a)) throw new RangeError(`a must be a positive finite number, got ${a}`);
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e -= 1;
  else if (2 ** (e + 1) <= a) e += 1;
  return e;
}

/**
 * Rounds a non-negative number to the nearest integer, ties to even.
 * @param r a non-negative float64 (exact: only floor and a subtraction)
 * @returns the nearest integer; on a tie (fraction exactly 0.5) the even one
 * @see IEEE 754-2008 §4.3.1 roundTiesToEven
 * @example roundHalfEven(2.5) // 2
 * @example roundHalfEven(3.5) // 4
 */
export function roundHalfEven(r: number): number {
  const n = Math.floor(r);
  const frac = r - n; // exact: r and n share a binade or n = 0
  if (frac > 0.5) return n + 1;
  if (frac < 0.5) return n;
  return n % 2 === 0 ? n : n + 1;
}
