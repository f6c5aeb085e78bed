/**
 * The floating-point formats of the course and their published constants.
 *
 * A binary floating-point format with `exponentBits` E, `mantissaBits` m and
 * bias b represents normal numbers (−1)^s · 1.f · 2^(e−b) for exponent fields
 * e in [1, emax + b] and subnormal numbers (−1)^s · 0.f · 2^(1−b) for e = 0.
 * The constants below are derived from (E, m, b) by {@link makeFormat}, so a
 * test can check them against the published values (IEEE 754, the bfloat16
 * and A100 documents, the OCP FP8 specification).
 */

/**
 * Names of the formats, as used by PyTorch (`torch.float16`…) and the OCP FP8 spec.
 * @see the sources of {@link FORMAT_NAMES}: PyTorch torch.dtype names (torch.float32, torch.bfloat16, torch.float16, torch.float8_e4m3fn, torch.float8_e5m2); OCP OFP8 v1.0
 */
export type FormatName = "fp32" | "fp16" | "bf16" | "tf32" | "fp8-e4m3" | "fp8-e5m2";

/**
 * Every format name, in display order (widest first).
 * @example FORMAT_NAMES.length // 6
 * @see PyTorch torch.dtype names (torch.float32, torch.bfloat16, torch.float16, torch.float8_e4m3fn, torch.float8_e5m2); OCP OFP8 v1.0
 */
export const FORMAT_NAMES: readonly FormatName[] = ["fp32", "tf32", "bf16", "fp16", "fp8-e5m2", "fp8-e4m3"];

/**
 * The layout and range of one format. Every number is exact (a power of two or a small multiple of one).
 * @see the sources of {@link FORMAT_NAMES}: PyTorch torch.dtype names (torch.float32, torch.bfloat16, torch.float16, torch.float8_e4m3fn, torch.float8_e5m2); OCP OFP8 v1.0
 */
export interface FloatFormat {
  name: FormatName;
  /** Total storage bits: 1 sign + exponentBits + mantissaBits (tf32 is a 19-bit format stored in 32-bit registers). */
  bits: number;
  exponentBits: number;
  /** Stored (explicit) fraction bits; the precision is mantissaBits + 1 with the implicit leading 1. */
  mantissaBits: number;
  bias: number;
  /** Smallest normal exponent, 1 − bias. */
  emin: number;
  /** Largest finite exponent. */
  emax: number;
  /** Largest finite value. */
  maxFinite: number;
  /** Smallest positive normal value, 2^emin. */
  minNormal: number;
  /** Smallest positive subnormal value, 2^(emin − mantissaBits). */
  minSubnormal: number;
  /** Distance from 1 to the next larger value, 2^−mantissaBits (the unit roundoff is half of it). */
  machineEpsilon: number;
  /** False for fp8-e4m3 (E4M3FN): the all-ones exponent still holds finite numbers. */
  hasInfinity: boolean;
  /** What a finite value beyond the range becomes in a cast (PyTorch): "infinity" or "nan" (E4M3FN). */
  overflow: "infinity" | "nan";
  /** The bit pattern `encode` returns for NaN. */
  nanBits: number;
  /** Where the format is defined. */
  source: string;
}

/**
 * Derives a format's constants from its exponent and mantissa widths.
 * @param name the format's name
 * @param exponentBits E, 1 to 11
 * @param mantissaBits m, 1 to 52
 * @param fn true for "finite, NaN only" formats (OCP E4M3FN): no infinity, the
 *   all-ones exponent holds normal numbers and only S.1111.111 is NaN
 * @param nanBits the pattern `encode` returns for NaN
 * @param source where the format is defined
 * @returns the format description
 * @example makeFormat("fp16", 5, 10, false, 0x7e00, "IEEE 754").maxFinite // 65504
 * @see IEEE 754-2008 §3.3 (emax, emin = 1 − emax, bias) and §3.4; OCP OFP8 v1.0 (E4M3: the all-ones exponent holds numbers)
 */
export function makeFormat(name: FormatName, exponentBits: number, mantissaBits: number, fn: boolean, nanBits: number, source: string): FloatFormat {
  const bias = 2 ** (exponentBits - 1) - 1;
  const emin = 1 - bias;
  // IEEE: the all-ones exponent field is reserved for Inf/NaN. FN: it holds
  // numbers, except the all-ones mantissa (NaN), so the top binade loses one value.
  const emax = fn ? 2 ** exponentBits - 1 - bias : 2 ** exponentBits - 2 - bias;
  const topMantissa = fn ? 2 ** mantissaBits - 2 : 2 ** mantissaBits - 1;
  return {
    name,
    bits: 1 + exponentBits + mantissaBits,
    exponentBits,
    mantissaBits,
    bias,
    emin,
    emax,
    maxFinite: (1 + topMantissa / 2 ** mantissaBits) * 2 ** emax,
    minNormal: 2 ** emin,
    minSubnormal: 2 ** (emin - mantissaBits),
    machineEpsilon: 2 ** -mantissaBits,
    hasInfinity: !fn,
    overflow: fn ? "nan" : "infinity",
    nanBits,
    source,
  };
}

/**
 * The six formats. NaN bit patterns follow PyTorch's c10 casts (quiet NaN with
 * the top mantissa bit set; 0x7F for both FP8 formats).
 * @example FORMATS.fp16.maxFinite // 65504
 * @example FORMATS["fp8-e4m3"].maxFinite // 448
 * @see IEEE 754-2008 §3.6 (binary16, binary32); Wang & Kanwar 2019 (bfloat16);
 *   NVIDIA A100 Tensor Core GPU Architecture whitepaper (TF32);
 *   OCP 8-bit Floating Point Specification (OFP8) rev. 1.0, Table 1.
 */
export const FORMATS: Readonly<Record<FormatName, FloatFormat>> = Object.freeze({
  fp32: makeFormat("fp32", 8, 23, false, 0x7fc00000, "IEEE 754-2008 binary32"),
  tf32: makeFormat("tf32", 8, 10, false, 0x3fe00, "NVIDIA A100 whitepaper (TensorFloat-32)"),
  bf16: makeFormat("bf16", 8, 7, false, 0x7fc0, "Google bfloat16 (Wang & Kanwar 2019)"),
  fp16: makeFormat("fp16", 5, 10, false, 0x7e00, "IEEE 754-2008 binary16"),
  "fp8-e5m2": makeFormat("fp8-e5m2", 5, 2, false, 0x7f, "OCP OFP8 v1.0, E5M2"),
  "fp8-e4m3": makeFormat("fp8-e4m3", 4, 3, true, 0x7f, "OCP OFP8 v1.0, E4M3 (FN: no infinities)"),
});

/**
 * Returns the description of `format`, validating the name.
 * @param format a format name
 * @returns FORMATS[format]
 * @throws {TypeError} `format must be one of fp32, tf32, bf16, fp16, fp8-e5m2, fp8-e4m3, got "fp64"`
 * @example getFormat("bf16").mantissaBits // 7
 * @see {@link FORMATS} and the sources cited there
 */
export function getFormat(format: string): FloatFormat {
  if (typeof format !== "string" || !Object.prototype.hasOwnProperty.call(FORMATS, format)) {
    throw new TypeError(`format must be one of ${FORMAT_NAMES.join(", ")}, got ${JSON.stringify(format)}`);
  }
  return FORMATS[format as FormatName];
}
