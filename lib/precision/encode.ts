/**
 * Bit patterns of a format: the value → bits direction.
 *
 * Written with arithmetic on numbers instead of bit operators, so that the
 * 32-bit patterns of fp32 stay non-negative: bits = s·2^(n−1) + e·2^m + f.
 */
import { getFormat } from "./formats.js";
import { round, isRepresentable, type RoundOptions } from "./round.js";
import { binade } from "./binade.js";

/**
 * The bit pattern of x rounded to `format` (see {@link round}), as an
 * unsigned integer of `FORMATS[format].bits` bits.
 *
 * Layout: sign (1 bit) · biased exponent (E bits) · fraction (m bits).
 * Zero and subnormals have exponent field 0 and fraction a / minSubnormal;
 * a normal value a = 2^e·(1 + f/2^m) has exponent field e + bias.
 * NaN encodes as `FORMATS[format].nanBits` (positive sign).
 * @param format a format name
 * @param x any number; it is rounded first
 * @param options `{saturate}` as in {@link round}
 * @returns the bits, an integer in [0, 2^bits)
 * @throws {TypeError} on an unknown format or a non-number x
 * @example encode("fp16", 1) // 0x3c00
 * @example encode("fp16", -2) // 0xc000
 * @example encode("fp16", 2 ** -24) // 0x0001 (min subnormal)
 * @example encode("bf16", 1.01171875) // 0x3f82
 * @example encode("fp8-e4m3", 448) // 0x7e
 * @see IEEE 754-2008 §3.4 (binary interchange format encodings)
 */
export function encode(format: string, x: number, options: RoundOptions = {}): number {
  const f = getFormat(format);
  const v = round(format, x, options);
  if (Number.isNaN(v)) return f.nanBits;
  const signBit = v < 0 || Object.is(v, -0) ? 2 ** (f.bits - 1) : 0;
  const a = Math.abs(v);
  const mantScale = 2 ** f.mantissaBits;
  if (a === Infinity) return signBit + (2 ** f.exponentBits - 1) * mantScale;
  if (a < f.minNormal) return signBit + a / f.minSubnormal; // exponent field 0
  const e = binade(a);
  const fraction = (a / 2 ** e - 1) * mantScale; // exact integer in [0, 2^m)
  return signBit + (e + f.bias) * mantScale + fraction;
}

/**
 * Formats bits as hexadecimal with the format's width, e.g. `0x3c00`.
 * @param format a format name
 * @param bits an unsigned pattern
 * @returns "0x" + lowercase hex digits, zero-padded to ceil(bits/4) digits
 * @example toHex("fp16", 0x3c00) // "0x3c00"
 * @example toHex("fp8-e4m3", 0x7e) // "0x7e"
 * @throws {TypeError} `format must be one of fp32, tf32, bf16, fp16, fp8-e5m2, fp8-e4m3, got "fp64"`
 * @see IEEE 754-2008 §3.4 (the encodings shown); the page's section "The bit-layout explorer" (src/precision.md)
 */
export function toHex(format: string, bits: number): string {
  const f = getFormat(format);
  return "0x" + bits.toString(16).padStart(Math.ceil(f.bits / 4), "0");
}

/**
 * A value with its own bit pattern, for messages and tables: `1.015625 (0x3f82)`.
 * Only a value of the format has a pattern: any other number is shown with
 * "(not a <format> value)", never with the bits of its rounded value (which
 * would make 2049 look like 0x6800, the pattern of 2048). Values that are not
 * numbers are shown with their type.
 * @param format a format name
 * @param v a value
 * @returns "<value> (<hex>)" for a value of the format, "<value> (not a <format> value)" otherwise; −0 shows as "-0"
 * @example formatWithBits("bf16", 1.015625) // "1.015625 (0x3f82)"
 * @example formatWithBits("fp16", 2049) // "2049 (not a fp16 value)"
 * @throws {TypeError} on an unknown format, as {@link toHex}
 * @see IEEE 754-2008 §3.4; the page's section "The bit-layout explorer" (src/precision.md)
 */
export function formatWithBits(format: string, v: unknown): string {
  if (typeof v !== "number") return `${typeof v} ${JSON.stringify(v) ?? String(v)}`;
  const shown = Object.is(v, -0) ? "-0" : String(v);
  if (!isRepresentable(format, v)) return `${shown} (not a ${getFormat(format).name} value)`;
  return `${shown} (${toHex(format, encode(format, v))})`;
}
