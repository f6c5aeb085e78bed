/**
 * CPU reference of the precision-accumulation lesson: a sequential sum whose
 * accumulator is rounded to a narrow format after every addition.
 */
import { round } from "./round.js";

/**
 * Accumulator formats of the lesson.
 * @see the sources of {@link checkAccumulateArgs}: the page's section "Accumulation: why sums need more precision than storage" (src/precision.md); lib/precision/accumulate.ts, the kernel whose arguments it checks
 */
export type AccumulatorFormat = "fp32" | "fp16" | "bf16";

/**
 * Checks the arguments shared by the accumulation kernel and its reference.
 * @param values must be a Float32Array
 * @param lengths must be an array of integers in [0, values.length]
 * @param accumulator must be "fp32", "fp16" or "bf16"
 * @throws {TypeError} `values must be a Float32Array, got [object Array]`; `lengths must be an array of integers`;
 *   `accumulator must be one of fp32, fp16, bf16, got "fp8"`
 * @throws {RangeError} `lengths must hold integers in [0, 4] (values.length), got 5`
 * @example checkAccumulateArgs(new Float32Array(4), [4], "fp16") // returns undefined
 * @returns nothing (undefined) when the arguments are valid
 * @see the page's section "Accumulation: why sums need more precision than storage" (src/precision.md); lib/precision/accumulate.ts, the kernel whose arguments it checks
 */
export function checkAccumulateArgs(values: Float32Array, lengths: readonly number[], accumulator: string): void {
  if (!(values instanceof Float32Array)) throw new TypeError(`values must be a Float32Array, got ${Object.prototype.toString.call(values)}`);
  if (accumulator !== "fp32" && accumulator !== "fp16" && accumulator !== "bf16") {
    throw new TypeError(`accumulator must be one of fp32, fp16, bf16, got ${JSON.stringify(accumulator)}`);
  }
  if (!Array.isArray(lengths)) throw new TypeError(`lengths must be an array of integers`);
  for (const n of lengths) {
    if (!Number.isInteger(n) || n < 0 || n > values.length) {
      throw new RangeError(`lengths must hold integers in [0, ${values.length}] (values.length), got ${String(n)}`);
    }
  }
}

/**
 * Sums the first n values, for each n in `lengths`, sequentially, rounding the
 * accumulator to `accumulator` after every addition:
 * acc₀ = 0, acc_{i+1} = round(fmt, fl32(acc_i + x_i)), where fl32 is the
 * float32 addition a GPU performs. When every x_i is representable in the
 * accumulator format, fl32 is exact enough that this equals the correctly
 * rounded fp16/bf16 addition (no double rounding).
 * @param values (N,) float32 addends
 * @param lengths (K,) prefix lengths, integers in [0, N]
 * @param accumulator "fp32" | "fp16" | "bf16"
 * @returns (K,) the K sums as float32
 * @throws {TypeError|RangeError} on bad arguments, naming the field
 * @example accumulateReference(new Float32Array(4096).fill(1), [1000, 2048, 4096], "fp16") // Float32Array [1000, 2048, 2048]
 * @see Micikevicius et al. 2017, Mixed Precision Training, §3.3 (fp32 accumulation)
 */
export function accumulateReference(values: Float32Array, lengths: readonly number[], accumulator: AccumulatorFormat): Float32Array {
  checkAccumulateArgs(values, lengths, accumulator);
  const order = lengths.map((n, k) => ({ n, k })).sort((a, b) => a.n - b.n);
  const out = new Float32Array(lengths.length);
  let acc = 0;
  let i = 0;
  for (const { n, k } of order) {
    for (; i < n; i++) acc = round(accumulator, Math.fround(acc + values[i]));
    out[k] = acc;
  }
  return out;
}
