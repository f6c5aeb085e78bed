/**
 * Where a running sum kept in a narrow format stops growing: the total at
 * which adding the same value again is lost to rounding.
 */
import { fastRounder } from "./fastRound.js";
import { round, isRepresentable } from "./round.js";

/** The formats an accumulator can be kept in (tf32 is not a storage format). */
export type StallFormat = "fp32" | "bf16" | "fp16" | "fp8-e5m2" | "fp8-e4m3";

/** The formats of {@link StallFormat}, widest first. */
export const STALL_FORMATS: readonly StallFormat[] = ["fp32", "bf16", "fp16", "fp8-e5m2", "fp8-e4m3"];

/** What {@link stallPoint} returns. */
export interface Stall {
  /** The total once an addition leaves it unchanged, or what overflow gave (Infinity; NaN in fp8-e4m3). */
  total: number;
  /** How many additions changed the total (the one that overflowed included). */
  additions: number;
}

/**
 * Adds `addend` to a running total kept in `format`, starting from 0 and rounding the total
 * to `format` (nearest, ties to even) after every addition, until an addition leaves it
 * unchanged or overflows. The total stalls once half its spacing reaches the addend, at a
 * total whose last fraction bit is even when the addition is a tie: ones in fp16 stop at 2048.
 * @param format the accumulator's format
 * @param addend a positive finite value of `format`
 * @returns the total where it stops and the number of additions that changed it
 * @throws {RangeError} `format must be one of fp32, bf16, fp16, fp8-e5m2, fp8-e4m3, got "tf32"`;
 *   `addend must be a positive finite value of fp16, got 0.1`
 * @example stallPoint("fp16", 1) // { total: 2048, additions: 2048 }
 * @example stallPoint("fp8-e4m3", 64) // { total: NaN, additions: 8 } (448 + 64 rounds beyond the range)
 * @see Higham 2002, Accuracy and Stability of Numerical Algorithms, §4.2 (recursive summation); IEEE 754-2008 §4.3.1
 */
export function stallPoint(format: StallFormat, addend: number): Stall {
  if (!STALL_FORMATS.includes(format)) throw new RangeError(`format must be one of ${STALL_FORMATS.join(", ")}, got "${String(format)}"`);
  if (typeof addend !== "number" || !(addend > 0) || !Number.isFinite(addend) || !isRepresentable(format, addend)) {
    throw new RangeError(`addend must be a positive finite value of ${format}, got ${String(addend)}`);
  }
  const r = format === "fp32" || format === "fp16" || format === "bf16" ? fastRounder(format) : (x: number) => round(format, x);
  let total = 0, additions = 0;
  for (;;) {
    const next = r(total + addend); // the sum of two values of the format is exact in float64
    if (next === total) return { total, additions };
    additions++;
    if (!Number.isFinite(next)) return { total: next, additions };
    total = next;
  }
}
