/**
 * Rounding a number to a format, like a cast in PyTorch.
 *
 * The input is a JavaScript number (float64) and is rounded once, directly
 * to the target format: the result is the representable value nearest to x,
 * ties to the one with an even last mantissa bit (IEEE 754 roundTiesToEven).
 * For a float32 input this equals PyTorch's float32 → fp16/bf16/fp8 cast.
 * Rounding a float64 first to float32 and then to fp16 can differ (double
 * rounding), see the page.
 */
import { getFormat, type FloatFormat } from "./formats.js";
import { binade, roundHalfEven } from "./binade.js";

/**
 * Options of {@link round}.
 * @see the sources of {@link roundMagnitude}: IEEE 754-2008 §4.3.1 (roundTiesToEven) and §3.3 (the quantum 2^(e−p+1))
 */
export interface RoundOptions {
  /**
   * Clamp values beyond the range (and ±Infinity) to ±maxFinite instead of
   * overflowing, like NVIDIA's `__NV_SATFINITE` FP8 conversions and the OCP
   * spec's saturating mode. NaN stays NaN. Default false.
   */
  saturate?: boolean;
}

/**
 * Rounds a non-negative finite number to `f` with an unbounded exponent range
 * above (the caller handles overflow). Exact: only power-of-two scalings.
 * @param f the format
 * @param a |x| ≥ 0, finite
 * @returns the nearest multiple of the quantum 2^(max(binade(a), emin) − m), ties to even
 * @throws {RangeError} when a is negative or not finite (from binade)
 * @example roundMagnitude(FORMATS.fp16, 65520) // 65536 (beyond maxFinite: the caller overflows it)
 * @see IEEE 754-2008 §4.3.1 (roundTiesToEven) and §3.3 (the quantum 2^(e−p+1))
 */
export function roundMagnitude(f: FloatFormat, a: number): number {
  if (a === 0) return 0;
  const e = Math.max(binade(a), f.emin); // subnormals share the quantum of the lowest binade
  const quantum = 2 ** (e - f.mantissaBits);
  return roundHalfEven(a / quantum) * quantum;
}

/**
 * Rounds x to the nearest value of `format` (ties to even), with subnormals,
 * signed zeros, infinities and NaN.
 *
 * Overflow (a result beyond maxFinite after rounding) follows PyTorch's casts:
 * fp32, tf32, bf16, fp16 and fp8-e5m2 give ±Infinity; fp8-e4m3 (E4M3FN, no
 * infinities) gives NaN, and ±Infinity inputs also give NaN. With
 * `{saturate: true}` such values become ±maxFinite.
 * @param format one of fp32, tf32, bf16, fp16, fp8-e5m2, fp8-e4m3
 * @param x any number (float64)
 * @param options `{saturate}`
 * @returns the rounded value, as a number
 * @throws {TypeError} on an unknown format or a non-number x: `x must be a number, got string`
 * @example round("fp16", 1 + 2 ** -11) // 1 (tie: 1 is even)
 * @example round("fp16", 65520) // Infinity
 * @example round("fp8-e4m3", 500) // NaN
 * @example round("fp8-e4m3", 500, { saturate: true }) // 448
 * @example round("bf16", 1.01171875) // 1.015625
 * @see IEEE 754-2008 §4.3.1; PyTorch c10/util/Half.h, BFloat16.h, Float8_e4m3fn.h, Float8_e5m2.h
 */
export function round(format: string, x: number, options: RoundOptions = {}): number {
  const f = getFormat(format);
  if (typeof x !== "number") throw new TypeError(`x must be a number, got ${typeof x}`);
  const saturate = options.saturate === true;
  if (Number.isNaN(x)) return NaN;
  const sign = x < 0 || Object.is(x, -0) ? -1 : 1;
  const overflowed = saturate ? sign * f.maxFinite : f.hasInfinity ? sign * Infinity : NaN;
  if (!Number.isFinite(x)) return saturate || !f.hasInfinity ? overflowed : x;
  const r = roundMagnitude(f, Math.abs(x));
  if (r > f.maxFinite) return overflowed;
  return sign * r; // sign * 0 keeps −0
}

/**
 * True when x is exactly representable in `format` (NaN and ±Infinity count
 * when the format has them).
 * @param format a format name
 * @param x any number
 * @returns round(format, x) is x (NaN counts as NaN)
 * @throws {TypeError} on an unknown format or a non-number x
 * @example isRepresentable("fp16", 65504) // true
 * @example isRepresentable("fp16", 0.1) // false
 * @see IEEE 754-2008 §3.3 (the set of floating-point data of a format)
 */
export function isRepresentable(format: string, x: number): boolean {
  const r = round(format, x);
  return Object.is(r, x) || (Number.isNaN(x) && Number.isNaN(r));
}
