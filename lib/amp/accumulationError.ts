/**
 * The "precision accumulation" (精度累加) of Micikevicius et al. 2017 §3.3,
 * measured with the course's matmul (`lib/nn/matmul.ts`, whose running sum is
 * rounded to a chosen accumulator format after every addition).
 */
import { matmul } from "../nn/matmul.js";
import { castArray, type TrainPrecision } from "./castArray.js";

/** One point of {@link accumulationError}. */
export interface AccumulationErrorPoint {
  k: number;
  /** Mean relative error of fp16 storage with fp32 accumulation, against the float64 product of the fp16 inputs. */
  fp32Accumulate: number;
  /** Same with the accumulator in the storage precision. */
  lowAccumulate: number;
}

/**
 * Relative error of an fp16 (or bf16) dot product of length k, accumulated
 * in fp32 versus in the storage precision, against the exact (float64) dot
 * product of the same rounded inputs. Each dot product is lib/nn's
 * `matmul(a, b, {M: 1, K: k, N: 1}, accumulate)` on inputs rounded to the
 * precision, its result rounded to the precision (a tensor core's fp16
 * output). Inputs are seeded uniform in [0, 1), so sums grow like k/4 and
 * low-precision accumulation loses the small addends.
 *
 * @param ks inner sizes to measure (integers >= 1)
 * @param options precision (default "fp16"), trials per k (default 8), seed
 * @returns one point per k
 * @throws {RangeError} `K must be an integer >= 1, got 0` (from matmul)
 * @example accumulationError([4096])[0].lowAccumulate > accumulationError([4096])[0].fp32Accumulate // true
 * @see Micikevicius et al. 2017, "Mixed Precision Training", §3.3 Arithmetic precision
 */
export function accumulationError(ks: readonly number[], options: { precision?: TrainPrecision; trials?: number; seed?: number } = {}): AccumulationErrorPoint[] {
  const precision = options.precision ?? "fp16";
  const trials = options.trials ?? 8;
  let state = (options.seed ?? 1) >>> 0;
  const rand = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296); // LCG, enough for test data
  const dot = (a: Float32Array, b: Float32Array, accumulate: TrainPrecision) => castArray(precision, matmul(a, b, { M: 1, K: a.length, N: 1 }, accumulate))[0]!;
  return ks.map((k) => {
    let e32 = 0;
    let eLow = 0;
    for (let t = 0; t < trials; t++) {
      const a = castArray(precision, Float32Array.from({ length: k }, rand)); // (1, K)
      const b = castArray(precision, Float32Array.from({ length: k }, rand)); // (K, 1)
      let exact = 0;
      for (let p = 0; p < k; p++) exact += a[p]! * b[p]!;
      e32 += Math.abs(dot(a, b, "fp32") - exact) / exact;
      eLow += Math.abs(dot(a, b, precision) - exact) / exact;
    }
    return { k, fp32Accumulate: e32 / trials, lowAccumulate: eLow / trials };
  });
}
