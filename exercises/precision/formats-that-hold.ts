import { notImplemented } from "../harness/index.js";

/** A format of this chapter, named as on the page (PyTorch's dtypes, the OCP FP8 formats). */
export type FormatName = "fp32" | "tf32" | "bf16" | "fp16" | "fp8-e5m2" | "fp8-e4m3";

/**
 * Exercise 1.1 — which formats could hold this tensor?
 *
 * What: a tensor was printed at full precision (`tensor.tolist()` gives
 * float64 numbers). Return every format of the chapter in which each of
 * `values` is exactly a value of the format: the dtypes the tensor could have
 * been stored in without any rounding.
 * Input: `values`, any numbers, any length (a million too).
 * Output: a new array of format names, in the page's order: fp32, tf32,
 * bf16, fp16, fp8-e5m2, fp8-e4m3; all six for an empty tensor.
 * Convention: the layouts of the page's table ("One layout, six formats":
 * E exponent bits, m fraction bits, subnormals; IEEE 754-2008 §3.4), fp8 as
 * in the OCP FP8 specification v1.0: E4M3 has no infinity and its all-ones
 * exponent holds numbers up to 448. ±0 and NaN are values of every format
 * (every format has NaN patterns; a NaN's payload does not matter); ±Infinity
 * of every format but fp8-e4m3.
 * Errors: an entry that is not a number throws a TypeError naming its index:
 * `values[3] must be a number, got string`.
 * Example: formatsThatHold([0.5, -3, 2 ** -20]) → ["fp32", "tf32", "bf16", "fp16"]
 * (2^−20 is an fp16 subnormal, below both fp8 formats' range).
 * The page: src/precision.md, "One layout, six formats", "Range: overflow,
 * underflow and subnormals" and "How far apart are neighbouring values?".
 *
 * @param values the printed values
 * @returns the formats that hold every value exactly, in the page's order
 * @throws {TypeError} when an entry is not a number
 */
export function formatsThatHold(values: number[]): FormatName[] {
  return notImplemented("1.1");
}
