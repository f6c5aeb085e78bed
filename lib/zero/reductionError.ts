/**
 * What reducing gradients in bf16 across many ranks costs in accuracy.
 */
import { ringAllReduce, addChunk, checkNumRanks } from "../collectives/index.js";
import { roundArrayInPlace, type TrainFormat } from "../precision/fastRound.js";
import { gaussian, mulberry32 } from "../random.js";

/** One point of {@link reductionError}. */
export interface ReductionErrorPoint {
  numRanks: number;
  reduceDtype: TrainFormat;
  /** Median over elements of |ring sum − exact sum| / |exact sum|. */
  medianRelError: number;
  /** Largest relative error over the elements. */
  maxRelError: number;
}

/**
 * Sums P ranks' gradients (each rank's value = a common signal 1 + noise of
 * standard deviation 1, already rounded to `reduceDtype`, as a 16-bit gradient
 * is) by ring all-reduce whose every partial sum is rounded to `reduceDtype`
 * (lib/precision's rounding), and compares with the exact (float64) sum of
 * the same inputs. Each element is rounded P − 1 times along the ring, so the
 * error grows with P; bf16 keeps 8 significant bits (unit roundoff 2⁻⁸), fp32 24.
 *
 * @param numRanks P (integer ≥ 1)
 * @param reduceDtype "fp32" | "fp16" | "bf16"
 * @param numElements elements per gradient (default 2048)
 * @param seed the noise seed (default 1)
 * @returns {@link ReductionErrorPoint}
 * @throws RangeError `numRanks must be an integer >= 1, got 0`; `format must be one of fp32, fp16, bf16, got "fp8"`
 * @example reductionError(1, "bf16").maxRelError // 0 (nothing is added)
 * @see PyTorch torch.distributed.fsdp.MixedPrecision docs (reduce_dtype); Higham 2002, Accuracy and Stability of Numerical Algorithms, §4.2 (recursive summation error ≤ (n−1)u Σ|x|)
 */
export function reductionError(numRanks: number, reduceDtype: TrainFormat, numElements = 2048, seed = 1): ReductionErrorPoint {
  checkNumRanks(numRanks);
  const rng = mulberry32(seed);
  const grads = Array.from({ length: numRanks }, () => roundArrayInPlace(reduceDtype, Float32Array.from({ length: numElements }, () => 1 + gaussian(rng))));
  const reduce = reduceDtype === "fp32" ? addChunk : (a: Float32Array, b: Float32Array) => roundArrayInPlace(reduceDtype, addChunk(a, b));
  const sum = ringAllReduce(grads, { reduce }).result[0];
  const rel: number[] = [];
  for (let i = 0; i < numElements; i++) {
    let exact = 0;
    for (const g of grads) exact += g[i];
    if (exact !== 0) rel.push(Math.abs(sum[i] - exact) / Math.abs(exact));
  }
  rel.sort((a, b) => a - b);
  return { numRanks, reduceDtype, medianRelError: rel[Math.floor(rel.length / 2)] ?? 0, maxRelError: rel.at(-1) ?? 0 };
}
