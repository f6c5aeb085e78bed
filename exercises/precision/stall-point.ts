import { notImplemented } from "../harness/index.js";

/** The formats an accumulator can be kept in (as on the page; tf32 is not a storage format). */
export type AccumulatorFormat = "fp32" | "bf16" | "fp16" | "fp8-e5m2" | "fp8-e4m3";

/**
 * Exercise 1.4 — where does a running sum stop?
 *
 * What: a loop keeps its running total in `format`. It starts at 0 and adds
 * `addend` again and again, and the total is rounded to `format` after every
 * addition. Return where the total stops changing, and after how many
 * additions.
 * Input: `format`; `addend`, a positive finite value of `format` (a
 * subnormal too).
 * Output: `{ total, additions }`: the total once an addition leaves it
 * unchanged, and the number of additions that changed it. If the total
 * overflows first, `total` is what the overflow gives (Infinity; NaN in
 * fp8-e4m3, which has no infinity) and `additions` counts the addition that
 * overflowed.
 * Convention: each addition is exact, then rounded to nearest, ties to even,
 * with subnormals, overflow as PyTorch's casts (the page's sections on
 * rounding and range); the layouts of the page's table.
 * Errors: another format throws a RangeError naming `format`; an addend that
 * is not a positive finite value of the format throws a RangeError naming
 * `addend`, e.g. `addend must be a positive finite value of fp16, got 0.1`.
 * Example: stallPoint("fp16", 1) → { total: 2048, additions: 2048 }, the
 * page's accumulator of ones.
 * The page: src/precision.md, "Accumulation: why sums need more precision
 * than storage", and the sections on rounding, range and spacing before it.
 *
 * @param format the accumulator's format
 * @param addend what is added every time, a positive value of `format`
 * @returns where the total stops, and how many additions changed it
 * @throws {RangeError} on another format or an addend that is not a positive finite value of the format
 */
export function stallPoint(format: AccumulatorFormat, addend: number): { total: number; additions: number } {
  return notImplemented("1.4");
}
