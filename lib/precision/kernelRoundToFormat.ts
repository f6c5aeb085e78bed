/**
 * Round-to-nearest-even to a narrower float, written for gpu.js kernels: no
 * bit operations (WebGL has none on floats), only float32 arithmetic that is
 * exact — comparisons with powers of two and scalings by them.
 *
 * 1. e = floor(log2|v|), corrected: Math.log2 may be off by one near powers
 *    of two, so compare |v| with 2^e and 2^(e+1).
 * 2. Clamp e to the target's emin (subnormals share the lowest quantum).
 * 3. r = |v|·2^−e·2^m is the value in units of the target's quantum; two
 *    steps keep every intermediate a normal float32.
 * 4. Round r half to even by hand: n = floor(r), compare r − n with 0.5,
 *    parity of n from n − 2·floor(n/2).
 * 5. Scale back, n·2^−m·2^e; beyond maxFinite the result overflows to
 *    ±`infinity` (an argument, so no backend turns it into FLT_MAX).
 * @see ./round.ts (the CPU reference it must equal bit for bit)
 */

/**
 * Rounds the float32 v to a format with `mantissaBits` fraction bits and
 * smallest normal exponent `emin` (8-bit-exponent formats: emin = −126).
 * ±0, ±Infinity and NaN pass through; a finite input that rounds beyond
 * maxFinite gives ±infinity. Also a plain JavaScript function:
 * the tests call it directly.
 * @param v the value (float32)
 * @param mantissaBits m: 10 for fp16 and tf32, 7 for bf16
 * @param emin 1 − bias: −14 for fp16, −126 for bf16 and tf32
 * @param maxFinite the target's max finite value
 * @param infinity pass Infinity
 * @returns the rounded value
 * @example kernelRoundToFormat(1 + 2 ** -11, 10, -14, 65504, Infinity) // 1
 * @see IEEE 754-2008 §4.3.1 (roundTiesToEven); {@link round} (the float64 definition it must equal); gpu.js README "Supported Math functions"
 */
export function kernelRoundToFormat(v: number, mantissaBits: number, emin: number, maxFinite: number, infinity: number): number {
  const a = Math.abs(v);
  if (a == 0.0 || a >= infinity || v != v) {
    return v; // ±0, ±Infinity and NaN pass through
  }
  let e = Math.floor(Math.log2(a));
  const p = Math.pow(2.0, e);
  if (p > a) {
    e = e - 1.0;
  } else if (p * 2.0 <= a) {
    e = e + 1.0;
  }
  if (e < emin) {
    e = emin;
  }
  const r = a * Math.pow(2.0, -e) * Math.pow(2.0, mantissaBits);
  let n = Math.floor(r);
  const frac = r - n;
  if (frac > 0.5) {
    n = n + 1.0;
  } else if (frac == 0.5) {
    if (n - 2.0 * Math.floor(n / 2.0) == 1.0) {
      n = n + 1.0;
    }
  }
  const rounded = n * Math.pow(2.0, -mantissaBits) * Math.pow(2.0, e);
  let s = 1.0;
  if (v < 0.0) {
    s = -1.0;
  }
  if (rounded > maxFinite) {
    return s * infinity;
  }
  return s * rounded;
}
