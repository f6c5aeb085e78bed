import { notImplemented } from "../harness/index.js";

/**
 * Exercise 1.1 — decode an fp16 (IEEE 754 binary16) bit pattern.
 *
 * Return the value of the 16-bit pattern `bits`: sign s (bit 15), exponent
 * field e (bits 14–10, bias 15), fraction f (bits 9–0):
 * - e = 0: zero or subnormal, (−1)^s · f · 2^−24 (so 0x8000 is −0);
 * - 1 ≤ e ≤ 30: normal, (−1)^s · (1 + f/1024) · 2^(e − 15);
 * - e = 31: ±Infinity when f = 0, NaN otherwise.
 *
 * Inputs: an integer in [0, 65535]. Anything else (70000, −1, 1.5, a string)
 * must throw a RangeError whose message names `bits`.
 * Output: a number (exact: every fp16 value is a float64 value).
 * Check yourself: 0x3c00 → 1, 0xc000 → −2, 0x7bff → 65504, 0x0001 → 2^−24.
 * Read: the chapter's "bit layout" section; IEEE 754-2008 §3.4.
 * Use arithmetic or bit operators (`>>`, `&`), as you like.
 *
 * @param bits the pattern, an integer in [0, 65535]
 * @returns the value it encodes
 * @throws {RangeError} when bits is not an integer in [0, 65535]
 */
export function decodeFp16(bits: number): number {
  return notImplemented("1.1");
}
