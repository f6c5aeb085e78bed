/**
 * Helpers for tests and graders of collectives: seeded random buffers and the
 * naive definitions the collectives must equal.
 */
import { mulberry32 } from "../random.js";

/**
 * P buffers of n seeded random values: small integers in [−8, 8] (`"int"`,
 * so that every sum of up to 2^20 of them is exact in float32) or float32
 * values of mixed magnitudes in ±[2^−10, 2^10] (`"float"`).
 * @example randomBuffers(2, 3, 7, "int") // two Float32Arrays of 3 integers
 * @param numRanks P, buffers to make
 * @param numElements n, values per buffer
 * @param seed mulberry32 seed
 * @param kind "int" or "float" (default)
 * @returns P Float32Arrays of length n
 * @see lib/random.ts mulberry32; Higham 2002, *Accuracy and Stability of Numerical Algorithms*, §2.1 (integers up to 2^24 are exact in float32)
 * @throws {TypeError} `seed must be a finite integer, got 0.5` (from mulberry32)
 */
export function randomBuffers(numRanks: number, numElements: number, seed: number, kind: "int" | "float" = "float"): Float32Array[] {
  const rand = mulberry32(seed);
  return Array.from({ length: numRanks }, () =>
    Float32Array.from({ length: numElements }, () =>
      kind === "int" ? Math.floor(rand() * 17) - 8 : (rand() < 0.5 ? -1 : 1) * 2 ** (rand() * 20 - 10),
    ),
  );
}

/**
 * The naive definition of a sum-reduction: Σ_r buffers[r][i], in float64.
 * @example naiveSum([Float32Array.of(1, 2), Float32Array.of(3, 4)]) // Float64Array [4, 6]
 * @param buffers P arrays of the same length n (the first one's length is used)
 * @returns (n,) float64 sums
 * @see MPI 4.0 standard, Collective Communication, MPI_Allreduce with MPI_SUM (the elementwise sum on every rank)
 */
export function naiveSum(buffers: readonly ArrayLike<number>[]): Float64Array {
  const n = buffers.length === 0 ? 0 : buffers[0].length;
  const out = new Float64Array(n);
  for (const b of buffers) for (let i = 0; i < n; i++) out[i] += b[i];
  return out;
}

/**
 * Largest |got[i] − want[i]| / (Σ_r |buffers[r][i]|), the error relative to the
 * sum of magnitudes: a float32 sum of P terms in any order is within
 * (P−1)·2^−24 of it (Higham 2002, Sec. 4.2).
 * @example maxSumError(Float32Array.of(4), Float64Array.of(4), [Float32Array.of(1), Float32Array.of(3)]) // 0
 * @param got (n,) the collective's result
 * @param want (n,) the exact (float64) sum
 * @param buffers the P inputs, for the magnitudes
 * @returns the largest relative error (absolute where every magnitude is 0)
 * @see Higham 2002, *Accuracy and Stability of Numerical Algorithms*, §4.2 (error bound of recursive summation)
 */
export function maxSumError(got: ArrayLike<number>, want: ArrayLike<number>, buffers: readonly ArrayLike<number>[]): number {
  let worst = 0;
  for (let i = 0; i < want.length; i++) {
    let mag = 0;
    for (const b of buffers) mag += Math.abs(b[i]);
    const err = Math.abs(got[i] - want[i]);
    worst = Math.max(worst, mag === 0 ? err : err / mag);
  }
  return worst;
}

/**
 * Index of the first element where a and b differ (as float32 bit patterns; NaN equals NaN), −1 if equal;
 * −2 if the lengths differ. Fast replacement for deep equality on long arrays.
 * @example firstMismatch(Float32Array.of(1, 2), [1, 3]) // 1
 * @param a first array
 * @param b second array
 * @returns the first differing index, −1 if equal, −2 if the lengths differ
 * @see IEEE 754-2008 §5.11 (a NaN compares unequal to itself: hence the explicit NaN check)
 */
export function firstMismatch(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return -2;
  for (let i = 0; i < a.length; i++) {
    const x = a[i], y = b[i];
    if (!(Object.is(x, y) || (Number.isNaN(x) && Number.isNaN(y)))) return i;
  }
  return -1;
}
