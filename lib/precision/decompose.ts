/**
 * The fields of a value in a format, for the bit-layout explorer.
 */
import { getFormat, type FormatName } from "./formats.js";
import { round, type RoundOptions } from "./round.js";
import { encode, toHex } from "./encode.js";

/**
 * What kind of value a bit pattern holds.
 * @see the sources of {@link decompose}: IEEE 754-2008 §3.4 (binary interchange format encodings: sign, biased exponent, trailing significand); OCP OFP8 v1.0 for the FP8 layouts
 */
export type ValueKind = "zero" | "subnormal" | "normal" | "infinity" | "nan";

/**
 * The fields of `round(format, x)`.
 * @see the sources of {@link decompose}: IEEE 754-2008 §3.4 (binary interchange format encodings: sign, biased exponent, trailing significand)
 */
export interface Decomposition {
  format: FormatName;
  /** The input. */
  x: number;
  /** round(format, x). */
  value: number;
  /** value − x (NaN when either is not finite). */
  error: number;
  /** |value − x| / |x| (0 when x = 0; NaN when not finite). */
  relativeError: number;
  bits: number;
  hex: string;
  /** "0" or "1". */
  signBit: string;
  /** The exponent field, E binary digits. */
  exponentField: string;
  /** The fraction field, m binary digits. */
  mantissaField: string;
  kind: ValueKind;
  /** The unbiased exponent: field − bias for normals, emin for zero and subnormals; null for Inf/NaN. */
  exponent: number | null;
  /** The significand: 1.f for normals, 0.f for subnormals; null for Inf/NaN. */
  significand: number | null;
}

/**
 * Rounds x to `format` and splits the result into sign, exponent and fraction fields.
 * value = (−1)^sign · significand · 2^exponent for finite values.
 * @param format a format name
 * @param x any number
 * @param options `{saturate}` as in round
 * @returns the fields, the rounded value and the rounding error
 * @throws {TypeError} on an unknown format, e.g. `format must be one of fp32, tf32, bf16, fp16, fp8-e5m2, fp8-e4m3, got "fp64"`, or a non-number x
 * @example decompose("fp16", 1.5) // {signBit: "0", exponentField: "01111", mantissaField: "1000000000", exponent: 0, significand: 1.5, kind: "normal", …}
 * @see IEEE 754-2008 §3.4 (binary interchange format encodings: sign, biased exponent, trailing significand); OCP OFP8 v1.0 for the FP8 layouts
 */
export function decompose(format: string, x: number, options: RoundOptions = {}): Decomposition {
  const f = getFormat(format);
  const value = round(format, x, options);
  const bits = encode(format, x, options);
  const binary = bits.toString(2).padStart(f.bits, "0");
  const signBit = binary.slice(0, 1);
  const exponentField = binary.slice(1, 1 + f.exponentBits);
  const mantissaField = binary.slice(1 + f.exponentBits);
  const expInt = parseInt(exponentField, 2);
  const fracInt = parseInt(mantissaField, 2);
  let kind: ValueKind;
  if (Number.isNaN(value)) kind = "nan";
  else if (!Number.isFinite(value)) kind = "infinity";
  else if (value === 0) kind = "zero";
  else if (expInt === 0) kind = "subnormal";
  else kind = "normal";
  const finite = kind !== "nan" && kind !== "infinity";
  const exponent = !finite ? null : expInt === 0 ? f.emin : expInt - f.bias;
  const significand = !finite ? null : (expInt === 0 ? 0 : 1) + fracInt / 2 ** f.mantissaBits;
  const error = Number.isFinite(value) && Number.isFinite(x) ? value - x : NaN;
  const relativeError = x === 0 ? (value === 0 ? 0 : NaN) : Math.abs(error) / Math.abs(x);
  return { format: f.name, x, value, error, relativeError, bits, hex: toHex(format, bits), signBit, exponentField, mantissaField, kind, exponent, significand };
}
