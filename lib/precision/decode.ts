/**
 * Bit patterns of a format: the bits → value direction.
 */
import { getFormat } from "./formats.js";

/**
 * The value of a bit pattern of `format`.
 *
 * With sign s, exponent field e, fraction f (m bits):
 * e = 0: (−1)^s · f · 2^(emin − m) (zero and subnormals);
 * 0 < e < all ones: (−1)^s · (1 + f/2^m) · 2^(e − bias);
 * e = all ones: IEEE formats give ±Infinity (f = 0) or NaN; fp8-e4m3 (E4M3FN)
 * gives NaN only for f = all ones and a normal number otherwise.
 * @param format a format name
 * @param bits an integer in [0, 2^bits)
 * @returns the value (exact in float64)
 * @throws {RangeError} `bits must be an integer in [0, 65535] for fp16, got 70000`
 * @example decode("fp16", 0x3c00) // 1
 * @example decode("fp16", 0x7bff) // 65504
 * @example decode("fp16", 0x0001) // 5.960464477539063e-8 (2^-24)
 * @example decode("fp16", -0) // 0 (+0: the number −0 is the pattern 0x0000)
 * @example decode("fp8-e4m3", 0x7e) // 448
 * @example decode("fp8-e4m3", 0x7f) // NaN
 * @see IEEE 754-2008 §3.4; OCP OFP8 v1.0 Table 1
 */
export function decode(format: string, bits: number): number {
  const f = getFormat(format);
  const limit = 2 ** f.bits;
  if (typeof bits !== "number" || !Number.isInteger(bits) || bits < 0 || bits >= limit) {
    throw new RangeError(`bits must be an integer in [0, ${limit - 1}] for ${f.name}, got ${String(bits)}`);
  }
  bits += 0; // the number −0 is the pattern 0 (+0 + 0 and −0 + 0 are both +0)
  const mantScale = 2 ** f.mantissaBits;
  const sign = bits >= 2 ** (f.bits - 1) ? -1 : 1;
  const fraction = bits % mantScale;
  const expField = Math.floor(bits / mantScale) % 2 ** f.exponentBits;
  const expAllOnes = 2 ** f.exponentBits - 1;
  if (expField === expAllOnes) {
    if (f.hasInfinity) return fraction === 0 ? sign * Infinity : NaN;
    if (fraction === mantScale - 1) return NaN;
  }
  if (expField === 0) return sign * fraction * f.minSubnormal;
  return sign * (1 + fraction / mantScale) * 2 ** (expField - f.bias);
}
