/**
 * An FP8 GEMM: products of FP8 values summed in a tensor-core accumulator of
 * limited precision, promoted to an fp32 accumulator every `promoteEvery`
 * products, where the partial sum is multiplied by the two operands' inverse
 * scales (per tensor, or per tile as in DeepSeek-V3).
 */
import { binade, roundHalfEven } from "../../precision/binade.js";
import type { Fp8Tiles } from "./quantizeTiles.js";

/** Options of {@link fp8Gemm}. */
export interface Fp8GemmOptions {
  /**
   * Significant bits the tensor-core accumulator keeps (default 24, fp32). DeepSeek-V3 §3.3.2 measured
   * "around 14 bits" for FP8 GEMMs on H800; the course models that as a running sum rounded to this
   * many bits after every addition (a model: the hardware's exact alignment and rounding are not published).
   */
  accumulatorBits?: number;
  /** How the accumulator rounds: "nearest" (ties to even, default) or "toward-zero" (truncation). */
  accumulatorRounding?: "nearest" | "toward-zero";
  /** Every this many products the partial sum is scaled and added into fp32 (DeepSeek-V3: N_C = 128). Default K: never. */
  promoteEvery?: number;
}

/**
 * Rounds v to `bits` significant bits (float32's exponent range is not modelled: the sums stay far inside it).
 * @param v a finite number
 * @param bits significant bits, integer in [2, 53]
 * @param mode "nearest" (ties to even) or "toward-zero"
 * @returns v rounded
 * @example roundToBits(1 + 2 ** -14, 14, "nearest") // 1 (a tie, to even)
 * @see IEEE 754-2008 §4.3 (roundTiesToEven, roundTowardZero); lib/precision binade and roundHalfEven
 */
export function roundToBits(v: number, bits: number, mode: "nearest" | "toward-zero" = "nearest"): number {
  if (v === 0 || !Number.isFinite(v)) return v;
  const a = Math.abs(v), q = 2 ** (binade(a) - (bits - 1));
  const r = (mode === "nearest" ? roundHalfEven(a / q) : Math.floor(a / q)) * q;
  return v < 0 ? -r : r;
}

/** The inverse scale of operand element (r, c). */
const scaleInvAt = (t: Fp8Tiles, r: number, c: number) => t.scaleInv[Math.floor(r / t.tileRows) * Math.ceil(t.cols / t.tileCols) + Math.floor(c / t.tileCols)];

/**
 * C = A · B for FP8 operands: for every output (i, j) and every block of
 * `promoteEvery` consecutive k, the products A[i,k]·B[k,j] of the FP8 values
 * (exact in fp32) are summed in the accumulator model; the partial sum, rounded to fp32,
 * is multiplied by fp32(sInvA · sInvB) of that block and added to the fp32 result.
 * The scales must be constant inside each k-block: a tile along K is the whole of K or a multiple of `promoteEvery`.
 * @param A (M, K) operand in the GEMM's layout (op(A)), FP8 values and tile scales
 * @param B (K, N) operand (op(B))
 * @param options accumulator bits and rounding, promotion interval
 * @returns C, (M, N) row-major float32
 * @throws {RangeError} `A has 64 columns but B has 32 rows`; `A's tiles of 32 columns do not nest the k-blocks of promoteEvery = 128`;
 *   `accumulatorBits must be an integer in [2, 24], got 30`; `promoteEvery must be an integer >= 1, got 0`
 * @example
 * const one = (d, r, c) => ({ data: Float32Array.from(d), rows: r, cols: c, tileRows: r, tileCols: c, scale: Float32Array.of(2), scaleInv: Float32Array.of(0.5), overflow: 0, underflow: 0 });
 * fp8Gemm(one([2, 4], 1, 2), one([6, 8], 2, 1)); // Float32Array [11]: (2·6 + 4·8) · 0.5 · 0.5
 * @see DeepSeek-AI 2024, DeepSeek-V3 Technical Report, §3.3.2 "Increasing Accumulation Precision" (N_C = 128, promotion to CUDA cores,
 *   scaling factors applied there); NVIDIA/TransformerEngine `MMParams.use_split_accumulator` (CUBLASLT_MATMUL_DESC_FAST_ACCUM)
 */
export function fp8Gemm(A: Fp8Tiles, B: Fp8Tiles, options: Fp8GemmOptions = {}): Float32Array {
  const M = A.rows, K = A.cols, N = B.cols;
  if (B.rows !== K) throw new RangeError(`A has ${K} columns but B has ${B.rows} rows`);
  const bits = options.accumulatorBits ?? 24, mode = options.accumulatorRounding ?? "nearest", P = options.promoteEvery ?? K;
  if (!Number.isInteger(bits) || bits < 2 || bits > 24) throw new RangeError(`accumulatorBits must be an integer in [2, 24], got ${bits}`);
  if (!Number.isInteger(P) || P < 1) throw new RangeError(`promoteEvery must be an integer >= 1, got ${P}`);
  if (A.tileCols < K && A.tileCols % P !== 0) throw new RangeError(`A's tiles of ${A.tileCols} columns do not nest the k-blocks of promoteEvery = ${P}`);
  if (B.tileRows < K && B.tileRows % P !== 0) throw new RangeError(`B's tiles of ${B.tileRows} rows do not nest the k-blocks of promoteEvery = ${P}`);
  const fp32 = bits === 24 && mode === "nearest";
  const C = new Float32Array(M * N), part = fp32 ? new Float32Array(N) : new Float64Array(N); // a Float32Array store rounds each sum to fp32
  for (let i = 0; i < M; i++) {
    const ci = C.subarray(i * N, i * N + N); // (N): float32 stores
    for (let k0 = 0; k0 < K; k0 += P) {
      part.fill(0);
      for (let k = k0; k < Math.min(K, k0 + P); k++) {
        const x = A.data[i * K + k], row = k * N; // A[i, k]; row k of B
        if (fp32) for (let j = 0; j < N; j++) part[j] += x * B.data[row + j];
        else for (let j = 0; j < N; j++) part[j] = roundToBits(part[j] + x * B.data[row + j], bits, mode);
      }
      const sA = scaleInvAt(A, i, k0);
      for (let j = 0; j < N; j++) ci[j] += Math.fround(Math.fround(part[j]) * Math.fround(sA * scaleInvAt(B, k0, j)));
    }
  }
  return C;
}
