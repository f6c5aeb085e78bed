import { notImplemented } from "../harness/index.js";

/**
 * Exercise 1.3 — encode a number as fp16 bits, subnormals included.
 *
 * What: the 16-bit IEEE 754 binary16 pattern of the fp16 value nearest to
 * `x`, as PyTorch's `x.half()` stores it.
 * Input: `x`, a float32 value (any number that `Math.fround` leaves unchanged).
 * Output: the pattern as an unsigned integer in [0, 65535] (sign in bit 15,
 * exponent field in bits 14–10, fraction field in bits 9–0).
 * Convention: round to nearest, ties to even (IEEE 754-2008 §4.3.1), with
 * subnormals (no flush to zero); a value that rounds beyond the largest fp16
 * becomes ±Infinity (0x7c00 / 0xfc00), as in PyTorch; −0 keeps its sign
 * (0x8000); NaN gives any NaN pattern (e.g. 0x7e00). Layout: IEEE 754-2008 §3.4.
 * Errors: none (every float32 value has a pattern).
 * Examples: 1 → 0x3c00, −2 → 0xc000, 65504 → 0x7bff, 2^−24 → 0x0001, 0.1 → 0x2e66.
 * The page derives the layout and the rounding: src/precision.md, sections
 * "One layout, six formats", "Rounding: to nearest, ties to even" and
 * "Range: overflow, underflow and subnormals".
 *
 * @param x a float32 value
 * @returns the fp16 bit pattern, an integer in [0, 65535]
 */
export function encodeFp16(x: number): number {
  return notImplemented("1.3");
}
