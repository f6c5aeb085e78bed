import { notImplemented } from "../harness/index.js";

/**
 * Exercise 1.1 — decode an fp16 bit pattern.
 *
 * What: the value that a 16-bit IEEE 754 binary16 ("half precision") pattern
 * encodes: zeros, subnormals, normal numbers, ±Infinity and NaN.
 * Input: `bits`, the pattern as an unsigned integer in [0, 65535]: bit 15 is
 * the sign, bits 14–10 the exponent field, bits 9–0 the fraction field.
 * −0 is the number 0, so it is a valid input and means the pattern 0x0000.
 * Output: a number, exact (every fp16 value is a float64 value); the pattern
 * of negative zero gives −0.
 * Errors: any other input (70000, −1, 1.5, NaN, Infinity, the string
 * "15360") throws a RangeError whose message starts with
 * `bits must be an integer in [0, 65535]` and names the value received,
 * e.g. `bits must be an integer in [0, 65535], got 70000`.
 * Convention: IEEE 754-2008 §3.4 (binary interchange formats), binary16
 * parameters: 5 exponent bits, bias 15, 10 fraction bits.
 * Example: decodeFp16(0x3555) → 0.333251953125.
 * The page derives the layout: src/precision.md, "One layout, six formats".
 *
 * @param bits the pattern, an integer in [0, 65535]
 * @returns the value it encodes
 * @throws {RangeError} when bits is not an integer in [0, 65535]
 */
export function decodeFp16(bits: number): number {
  return notImplemented("1.1");
}
