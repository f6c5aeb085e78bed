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

/** Throws a RangeError unless M, K, N are integers >= 1 and the arrays are large enough. */
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
 * @see Micikevicius et al. 2017, Mixed Precision Training, §3.2 (accumulate fp16 products into fp32)
 */
export function matmul(a: Float32Array, b: Float32Array, shape: MatmulShape, accumulate: Format = "fp32"): Float32Array {
  checkMatmul(a, b, shape);
  const { M, K, N, transA = false, transB = false } = shape;
  const c = new Float32Array(M * N);
  const fp32 = accumulate === "fp32";
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < N; j++) {
      let s = 0;
      for (let k = 0; k < K; k++) {
        const x = transA ? a[k * M + i] : a[i * K + k]; // A[i,k]
        const y = transB ? b[j * K + k] : b[k * N + j]; // B[k,j]
        const p = Math.fround(x * y);
        s = fp32 ? Math.fround(s + p) : roundTo(accumulate, s + p);
      }
      c[i * N + j] = s; // (M, N)
    }
  }
  return c;
}

/**
 * The floating-point operation count of a matmul: 2·M·K·N (one multiply and one add per term).
 *
 * @param shape M, K, N
 * @returns FLOPs
 * @example
 * matmulFlops({ M: 2, K: 3, N: 4 }); // 48
 */
export function matmulFlops(shape: Pick<MatmulShape, "M" | "K" | "N">): number {
  return 2 * shape.M * shape.K * shape.N;
}
