/**
 * The inverse of the page's exponent histogram: the power-of-two loss scales
 * under which a step's gradients neither overflow fp16 nor lose more than a
 * given share of themselves to underflow.
 */

/** The range of log₂ S that {@link lossScaleRange} returns. */
export interface LossScaleRange { minLog2: number; maxLog2: number }

/** Powers of two a float32 loss scale can take: 2^−126 … 2^127. */
export const LOSS_SCALE_LOG2_LIMITS = Object.freeze({ min: -126, max: 127 });

/** |x| = m · 2^e with m in [1, 2): e and m, exactly (powers of two found by comparison, not by a rounded logarithm). */
function binade(a: number): { e: number; m: number } {
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  if (2 ** (e + 1) <= a) e++;
  return { e, m: a / 2 ** e };
}

/**
 * Every k with S = 2^k (k in [−126, 127], a float32 scale) such that no scaled gradient overflows fp16
 * (|S·g| rounds to ±Infinity from 65520 up) and at most `maxUnderflowFraction` of the nonzero gradients
 * underflow (|S·g| ≤ 2^−25 rounds to zero, the tie at 2^−25 to the even 0; the count is compared with
 * maxUnderflowFraction × the number of nonzero gradients, in float64): an interval, as overflow grows and
 * underflow shrinks with k. Zeros of fp32 are not counted; a gradient that is already ±Infinity or NaN admits
 * no scale. Per gradient the thresholds are exact: with |g| = m·2^e, it underflows for k ≤ −25 − e (m = 1) or
 * −26 − e (m > 1), and overflows for k ≥ 16 − e, or 15 − e when m ≥ 65520/2^15.
 * @param grads the fp32 gradients of one step (any length; a million too)
 * @param maxUnderflowFraction the share of nonzero gradients allowed to become 0, in [0, 1]
 * @returns {minLog2, maxLog2}, or null when no k fits
 * @throws {RangeError} `maxUnderflowFraction must be a number in [0, 1], got 2`
 * @example lossScaleRange(Float32Array.of(1e-9, 3e-6, 0.25), 0) // { minLog2: 5, maxLog2: 17 }
 * @example lossScaleRange(Float32Array.of(1e-9, 3e-6, 0.25), 1 / 3) // { minLog2: -6, maxLog2: 17 } (1e-9 may underflow)
 * @see Micikevicius et al. 2017, *Mixed Precision Training*, §3.2 (loss scaling) and Figure 3; IEEE 754 binary16
 */
export function lossScaleRange(grads: ArrayLike<number>, maxUnderflowFraction: number): LossScaleRange | null {
  if (typeof maxUnderflowFraction !== "number" || !(maxUnderflowFraction >= 0 && maxUnderflowFraction <= 1)) {
    throw new RangeError(`maxUnderflowFraction must be a number in [0, 1], got ${maxUnderflowFraction}`);
  }
  const { min, max } = LOSS_SCALE_LOG2_LIMITS;
  let hi: number = max; // the largest k without overflow
  const under = new Map<number, number>(); // k → gradients that underflow for every k' <= k
  let nonzero = 0;
  for (let i = 0; i < grads.length; i++) {
    const g = grads[i]!;
    if (!Number.isFinite(g)) return null;
    if (g === 0) continue;
    nonzero++;
    const { e, m } = binade(Math.abs(g));
    hi = Math.min(hi, (m >= 65520 / 2 ** 15 ? 15 : 16) - e - 1);
    const u = (m === 1 ? -25 : -26) - e;
    under.set(u, (under.get(u) ?? 0) + 1);
  }
  // the smallest k whose underflow count, #{g: u(g) >= k}, is within the allowance (compared as count <= f · nonzero)
  const allowed = maxUnderflowFraction * nonzero;
  const us = [...under.keys()].sort((a, b) => b - a);
  let count = 0, lo: number = min;
  for (const u of us) {
    if (u < min) break;
    count += under.get(u)!;
    if (count > allowed) { lo = u + 1; break; }
  }
  return lo <= hi ? { minLog2: lo, maxLog2: hi } : null;
}
