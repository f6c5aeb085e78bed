import { notImplemented } from "../harness/index.js";

/**
 * Exercise 1.2 — round a float32 value to bfloat16.
 *
 * Return the bf16 value nearest to `x` (a float32 value, e.g. from
 * `Math.fround`), as a number. bf16 keeps float32's sign and 8 exponent bits
 * and only the top 7 of its 23 fraction bits.
 * - Round to nearest; when x is exactly halfway between two bf16 values
 *   (the dropped 16 bits are 0x8000), choose the one whose last kept bit is 0
 *   (ties to even). Truncating the low 16 bits is wrong.
 * - Overflow: values that round beyond the largest bf16 (≈ 3.3895e38) give
 *   ±Infinity, as PyTorch's `x.to(torch.bfloat16)` does.
 * - NaN stays NaN, ±Infinity and ±0 stay themselves; float32 subnormals round
 *   to bf16 subnormals (bf16 has them too).
 * Check yourself: 1.01171875 → 1.015625 (tie, 0x3f82), 1.00390625 → 1 (tie).
 * Hint: a Float32Array and a Uint32Array on the same buffer give the bits.
 * Read: the chapter's "rounding" section; Wang & Kanwar 2019 (bfloat16);
 * PyTorch c10/util/BFloat16.h `round_to_nearest_even`.
 *
 * @param x a float32 value
 * @returns the nearest bf16 value (ties to even), a number
 */
export function roundToBf16(x: number): number {
  return notImplemented("1.2");
}
