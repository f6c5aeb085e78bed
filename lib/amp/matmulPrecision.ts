/**
 * Matrix products in a simulated precision, with the accumulator in fp32 or
 * in the storage precision: the "precision accumulation" (精度累加) of
 * Micikevicius et al. 2017 §3.3.
 */
import { caster, type TrainPrecision } from "./castArray.js";

/** How the K products of a dot product are summed. */
export type Accumulate = "fp32" | "low";

/** Options of {@link matmulPrecision}. */
export interface MatmulPrecisionOptions {
  /** Storage precision of inputs and output. */
  precision: TrainPrecision;
  /** "fp32": products summed in float32, rounded to `precision` once (tensor cores' fp32 accumulate); "low": the running sum is rounded to `precision` after every addition. Default "fp32". */
  accumulate?: Accumulate;
}

/**
 * C = A·B with A (M, K), B (K, N), row-major, in a simulated precision.
 *
 * Inputs are first rounded to `precision`; each product a·b is exact in
 * float64 and rounded to float32 (as a tensor core's fp16×fp16 product is
 * exact in fp32); the running sum is rounded to float32 ("fp32") or to
 * `precision` ("low") after each addition; C is rounded to `precision`.
 *
 * @param a (M, K) row-major
 * @param b (K, N) row-major
 * @param m rows of A; @param k inner size; @param n columns of B (integers >= 1)
 * @param options precision and accumulate
 * @returns C (M, N) row-major, values exact in `precision`
 * @throws {RangeError} `a must have m·k = 6 elements, got 5`
 * @example matmulPrecision(Float32Array.of(1, 2), Float32Array.of(3, 4), 1, 2, 1, {precision: "fp16"}) // Float32Array [11]
 * @see Micikevicius et al. 2017, "Mixed Precision Training", §3.3 Arithmetic precision
 */
export function matmulPrecision(a: Float32Array, b: Float32Array, m: number, k: number, n: number, options: MatmulPrecisionOptions): Float32Array {
  for (const [name, v] of [["m", m], ["k", k], ["n", n]] as const) if (!(Number.isInteger(v) && v >= 1)) throw new RangeError(`${name} must be an integer >= 1, got ${v}`);
  if (a.length !== m * k) throw new RangeError(`a must have m·k = ${m * k} elements, got ${a.length}`);
  if (b.length !== k * n) throw new RangeError(`b must have k·n = ${k * n} elements, got ${b.length}`);
  const c = caster(options.precision);
  const acc = (options.accumulate ?? "fp32") === "fp32" ? Math.fround : c;
  const ar = a.map(c);
  const br = b.map(c);
  const out = new Float32Array(m * n);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let p = 0; p < k; p++) s = acc(s + Math.fround(ar[i * k + p]! * br[p * n + j]!)); // A (i, p) · B (p, j)
      out[i * n + j] = c(s); // (M, N)
    }
  }
  return out;
}

/** One point of {@link accumulationError}. */
export interface AccumulationErrorPoint {
  k: number;
  /** Mean relative error of fp16 storage with fp32 accumulation, against the float64 product of the fp16 inputs. */
  fp32Accumulate: number;
  /** Same with fp16 accumulation. */
  lowAccumulate: number;
}

/**
 * Relative error of an fp16 (or bf16) dot product of length k, accumulated
 * in fp32 versus in the storage precision, against the exact (float64) dot
 * product of the same rounded inputs. Inputs are seeded uniform in [0, 1), so
 * sums grow like k/4 and low-precision accumulation loses the small addends.
 * @param ks inner sizes to measure (integers >= 1)
 * @param options precision (default "fp16"), trials per k (default 8), seed
 * @returns one point per k
 * @example accumulationError([4096])[0].lowAccumulate > accumulationError([4096])[0].fp32Accumulate // true
 */
export function accumulationError(ks: readonly number[], options: { precision?: TrainPrecision; trials?: number; seed?: number } = {}): AccumulationErrorPoint[] {
  const precision = options.precision ?? "fp16";
  const trials = options.trials ?? 8;
  const c = caster(precision);
  let state = (options.seed ?? 1) >>> 0;
  const rand = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296); // LCG, enough for test data
  return ks.map((k) => {
    let e32 = 0;
    let eLow = 0;
    for (let t = 0; t < trials; t++) {
      const a = Float32Array.from({ length: k }, () => c(rand()));
      const b = Float32Array.from({ length: k }, () => c(rand()));
      let exact = 0;
      for (let p = 0; p < k; p++) exact += a[p]! * b[p]!;
      const r32 = matmulPrecision(a, b, 1, k, 1, { precision, accumulate: "fp32" })[0]!;
      const rLow = matmulPrecision(a, b, 1, k, 1, { precision, accumulate: "low" })[0]!;
      e32 += Math.abs(r32 - exact) / exact;
      eLow += Math.abs(rLow - exact) / exact;
    }
    return { k, fp32Accumulate: e32 / trials, lowAccumulate: eLow / trials };
  });
}
