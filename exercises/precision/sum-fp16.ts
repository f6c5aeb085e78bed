import { notImplemented } from "../harness/index.js";

/**
 * Exercise 1.4 — sum with an fp16 accumulator.
 *
 * Return the sum of `values` computed the way an fp16 accumulator computes it:
 * start from 0 and, for each value in order, add it and round the running
 * total to the nearest fp16 value (ties to even; beyond 65504 → ±Infinity):
 *   acc = roundToFp16(acc + values[i])
 * Every input is already an fp16 value, so acc + values[i] is exact in a
 * JavaScript number and only the rounding to fp16 loses information.
 * Output: the final accumulator, a number (an fp16 value). Empty input → 0.
 * Do not modify `values`.
 * Check yourself: 4096 ones sum to 2048 (at 2048 the spacing is 2, and
 * 2048 + 1 is a tie that goes to the even 2048); [65504, 15] gives 65504 and
 * [65504, 16] gives Infinity (65520 is the tie between 65504 and 65536 and
 * 65504 is odd).
 * You may reuse your 1.3 encoder or write a small fp16 rounding helper.
 * Read: the chapter's "Accumulation" section; Micikevicius et al. 2017 §3.3.
 *
 * @param values fp16 values, summed in order
 * @returns the fp16 accumulator after the last addition
 */
export function sumFp16(values: number[]): number {
  return notImplemented("1.4");
}
