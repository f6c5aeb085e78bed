import { notImplemented } from "../harness/index.js";

/**
 * Exercise 1.3 — encode a number as fp16 bits, subnormals included.
 *
 * Return the 16-bit IEEE 754 binary16 pattern of the fp16 value nearest to
 * `x` (a float32 value), as an integer in [0, 65535]:
 * sign (bit 15) · exponent field (bits 14–10, bias 15) · fraction (bits 9–0).
 * - Round to nearest, ties to even (as `round` in the chapter).
 * - |x| below 2^−14 (the smallest normal): exponent field 0 and fraction
 *   round(|x| / 2^−24) — the subnormals. Below half of 2^−24 it is ±0; exactly
 *   half rounds to 0 (even).
 * - Overflow: |x| that rounds beyond 65504 (from 65520 up) gives ±Infinity,
 *   0x7c00 / 0xfc00, as PyTorch's `x.half()`.
 * - −0 → 0x8000; NaN → any NaN pattern (exponent 31, fraction ≠ 0), e.g. 0x7e00.
 * Check yourself: 1 → 0x3c00, −2 → 0xc000, 65504 → 0x7bff, 2^−24 → 0x0001,
 * 0.1 → 0x2e66.
 * Read: the chapter's "bit layout" and "subnormals" sections; IEEE 754-2008 §3.4.
 *
 * @param x a float32 value
 * @returns the fp16 bit pattern, an integer in [0, 65535]
 */
export function encodeFp16(x: number): number {
  return notImplemented("1.3");
}
