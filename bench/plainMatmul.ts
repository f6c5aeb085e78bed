/** The matmul a reader would write: a plain loop, float64 sums stored as float32 (shared by npm run bench and npm run bench:browser). */

/**
 * C = A·B with a plain float64 loop, stored to a Float32Array: the floor any JavaScript matmul is compared with.
 * @param a (M, K) row-major
 * @param b (K, N) row-major
 * @returns (M, N) row-major
 * @example plainMatmul(Float32Array.of(1, 2, 3, 4), Float32Array.of(5, 6, 7, 8), 2, 2, 2) // Float32Array [19, 22, 43, 50]
 */
export function plainMatmul(a: Float32Array, b: Float32Array, M: number, K: number, N: number): Float32Array {
  const c = new Float32Array(M * N);
  for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) {
    let s = 0;
    for (let k = 0; k < K; k++) s += a[i * K + k] * b[k * N + j];
    c[i * N + j] = s;
  }
  return c;
}
