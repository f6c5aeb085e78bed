import { notImplemented } from "../harness/index.js";

/**
 * Exercise 1.4 — sum with an fp16 accumulator.
 *
 * What: the sum of `values` as a sequential loop computes it when its running
 * total is an fp16 variable (half precision in registers, as an fp16
 * accumulator of a matrix product or a reduction without fp32 accumulation).
 * Input: `values`, fp16 values (each one exact in fp16), in the order to add
 * them; any length, including 0. Do not modify the array.
 * Output: a number, the final value of the accumulator (an fp16 value, or
 * ±Infinity); the empty sum is 0.
 * Convention: the accumulator starts at 0 and every addition is one IEEE 754
 * binary16 addition: the exact sum of the accumulator and the next value,
 * rounded to fp16 with ties to even, overflowing to ±Infinity when it rounds
 * beyond 65504 (IEEE 754-2008 §4.3.1 and §5.4.1; PyTorch's half arithmetic).
 * Errors: none.
 * Examples: 4096 ones sum to 2048; [65504, 15] gives 65504; [65504, 16] gives Infinity.
 * The page explains why: src/precision.md, "Accumulation: why sums need more
 * precision than storage".
 *
 * @param values fp16 values, summed in order
 * @returns the fp16 accumulator after the last addition
 */
export function sumFp16(values: number[]): number {
  return notImplemented("1.4");
}
