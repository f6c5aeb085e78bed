/**
 * The CPU matrix product of the model, with a simulated accumulator format.
 */
import { roundTo, type Format } from "./precision.js";

/** Shape and layout of C = op(A) · op(B). */
export interface MatmulShape {
  /** Rows of op(A) and of C. */
  M: number;
  /** Columns of op(A), rows of op(B). */
  K: number;
  /** Columns of op(B) and of C. */
  N: number;
  /** A is stored transposed, (K, M) row-major. */
  transA?: boolean;
  /** B is stored transposed, (N, K) row-major. */
  transB?: boolean;
}

/**
 * Validates a matmul call: M, K, N must be integers >= 1 and `a`, `b` must hold exactly M·K and K·N elements.
 *
 * @param a op(A), (M, K) or (K, M) if transposed: M·K elements
 * @param b op(B), (K, N) or (N, K) if transposed: K·N elements
 * @param s M, K, N (element counts, not bytes) and layout flags
 * @returns nothing; returns normally when the call is valid
 * @throws {RangeError} `M must be an integer >= 1, got 0` (same for K, N);
 *   `a must have M·K = 4 elements, got 3`; `b must have K·N = 4 elements, got 5`
 * @example
 * checkMatmul(new Float32Array(6), new Float32Array(12), { M: 2, K: 3, N: 4 }); // undefined (valid)
 * checkMatmul(new Float32Array(5), new Float32Array(12), { M: 2, K: 3, N: 4 }); // throws `a must have M·K = 6 elements, got 5`
 * @see reference BLAS `sgemm` (C = op(A)·op(B) with TRANSA/TRANSB); PyTorch torch.matmul docs (shape rules)
 */
export function checkMatmul(a: ArrayLike<number>, b: ArrayLike<number>, s: MatmulShape): void {
  for (const k of ["M", "K", "N"] as const) {
    if (!Number.isInteger(s[k]) || s[k] < 1) throw new RangeError(`${k} must be an integer >= 1, got ${s[k]}`);
  }
  if (a.length !== s.M * s.K) throw new RangeError(`a must have M·K = ${s.M * s.K} elements, got ${a.length}`);
  if (b.length !== s.K * s.N) throw new RangeError(`b must have K·N = ${s.K * s.N} elements, got ${b.length}`);
}

/**
 * C = op(A)·op(B), summing over k in increasing order with the running sum
 * rounded to `accumulate` after every addition (fp32: as an fp32 FMA-free
 * accumulator; fp16/bf16: the low-precision accumulation that loses small
 * addends). The result is a Float32Array (each output then rounded by the
 * caller to the compute format).
 *
 * c[i,j] = Σ_k a[i,k]·b[k,j], with s ← round(s + round32(a·b)) per k.
 *
 * @param a op(A) is (M, K): stored (M, K) row-major, or (K, M) if `transA`
 * @param b op(B) is (K, N): stored (K, N) row-major, or (N, K) if `transB`
 * @param shape M, K, N and the layout flags
 * @param accumulate format of the running sum (default "fp32")
 * @returns C, (M, N) row-major
 * @throws {RangeError} `M must be an integer >= 1, got 0`, or `a must have M·K = … elements, got …`
 * @example
 * matmul(Float32Array.of(1, 2, 3, 4), Float32Array.of(5, 6, 7, 8), { M: 2, K: 2, N: 2 });
 * // Float32Array [19, 22, 43, 50]
 * @see Micikevicius et al. 2017, Mixed Precision Training, §3.3 Arithmetic Precision (accumulate fp16 products into fp32)
 */
export function matmul(a: Float32Array, b: Float32Array, shape: MatmulShape, accumulate: Format = "fp32"): Float32Array {
  checkMatmul(a, b, shape);
  const { M, K, N, transA = false, transB = false } = shape;
  const bKN = transB ? transpose(b, N, K) : b; // (K, N) row-major
  const c = new Float32Array(M * N);
  // i-k-j order: for each output row, add a[i,k]·b[k,:] into it for k = 0, 1, …, so every c[i,j]
  // still sums its K terms in increasing k (the same result as the textbook i-j-k loop).
  const row = accumulate === "fp32" ? null : new Float64Array(N);
  for (let i = 0; i < M; i++) {
    const ci = c.subarray(i * N, i * N + N); // (N): a Float32Array, so each store rounds to fp32
    if (row) row.fill(0);
    for (let k = 0; k < K; k++) {
      const x = transA ? a[k * M + i] : a[i * K + k]; // A[i,k]
      const bk = k * N; // row k of B
      if (row === null) {
        for (let j = 0; j < N; j++) ci[j] += Math.fround(x * bKN[bk + j]); // s ← fp32(s + fp32(a·b))
      } else {
        for (let j = 0; j < N; j++) row[j] = roundTo(accumulate, row[j] + Math.fround(x * bKN[bk + j])); // s ← fmt(s + fp32(a·b))
      }
    }
    if (row) ci.set(row);
  }
  return c;
}

/** The (cols, rows) transpose of a (rows, cols) row-major matrix. */
function transpose(m: Float32Array, rows: number, cols: number): Float32Array {
  const t = new Float32Array(m.length);
  for (let r = 0; r < rows; r++) for (let q = 0; q < cols; q++) t[q * rows + r] = m[r * cols + q]; // (cols, rows)
  return t;
}

/**
 * The floating-point operation count of a matmul: 2·M·K·N (one multiply and one add per term).
 *
 * @param shape M, K, N (integers; not validated: use {@link checkMatmul})
 * @returns FLOPs (a count, not a rate)
 * @example
 * matmulFlops({ M: 2, K: 3, N: 4 }); // 48
 * @see Narayanan et al. 2021, Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM
 *   (an (m, k)·(k, n) matmul takes 2·m·k·n FLOPs)
 */
export function matmulFlops(shape: Pick<MatmulShape, "M" | "K" | "N">): number {
  return 2 * shape.M * shape.K * shape.N;
}
