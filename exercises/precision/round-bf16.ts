import { notImplemented } from "../harness/index.js";

/**
 * Exercise 1.2 — round a float32 value to bfloat16.
 *
 * What: the bf16 value nearest to `x`, as PyTorch's `x.to(torch.bfloat16)`
 * computes it from a float32 tensor.
 * Input: `x`, a float32 value (any number that `Math.fround` leaves
 * unchanged): normal, subnormal, ±0, ±Infinity or NaN.
 * Output: a number, the bf16 value (exact in float32 and float64).
 * Convention: round to nearest, ties to even (IEEE 754-2008 §4.3.1,
 * roundTiesToEven), on bf16's layout: float32's sign and 8 exponent bits,
 * 7 fraction bits, subnormals kept (Wang & Kanwar 2019; PyTorch
 * c10/util/BFloat16.h). A value that rounds beyond the largest bf16 becomes
 * ±Infinity; NaN stays NaN; ±0 and ±Infinity stay themselves.
 * Errors: none (every float32 value has an answer).
 * Examples: roundToBf16(1.01171875) → 1.015625; roundToBf16(1.00390625) → 1.
 * The page derives the rule: src/precision.md, "Rounding: to nearest, ties to even".
 *
 * @param x a float32 value
 * @returns the nearest bf16 value (ties to even), a number
 */
export function roundToBf16(x: number): number {
  return notImplemented("1.2");
}
