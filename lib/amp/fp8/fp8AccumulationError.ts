/**
 * How the tensor-core accumulator's precision shows in an FP8 GEMM as K
 * grows, and how promoting partial sums to fp32 every 128 products (DeepSeek-V3)
 * bounds it.
 */
import { fp8Rounder } from "../../precision/fp8Rounder.js";
import { mulberry32 } from "../../random.js";
import { fp8Gemm, type Fp8GemmOptions } from "./fp8Gemm.js";
import type { Fp8Tiles } from "./quantizeTiles.js";

/** One K of {@link fp8AccumulationError}: the largest relative error of an output under each accumulator. */
export interface Fp8AccumulationPoint {
  k: number;
  /** fp32 accumulator. */
  fp32: number;
  /** `bits`-bit accumulator over all of K. */
  limited: number;
  /** `bits`-bit accumulator promoted to fp32 every `promoteEvery` products. */
  promoted: number;
}

/**
 * For each K: an (M, K) by (K, M) GEMM of seeded uniform [0, 1) values rounded to
 * E4M3 (scale 1), with three accumulators; returns the largest relative error
 * |c − c_exact| / c_exact over the M² outputs, against the exact dot products
 * (float64 sums of the FP8 products: exact here).
 * @param ks inner sizes, integers >= 1
 * @param options `{bits}` of the limited accumulator (default 14, DeepSeek-V3's measurement on H800),
 *   `{rounding}` ("nearest" default, or "toward-zero"), `{promoteEvery}` (default 128), `{m}` outputs per side (default 8), `{seed}`
 * @returns one point per K
 * @throws {RangeError} `ks must be integers >= 1, got 0`; fp8Gemm's messages on bad bits or interval
 * @example fp8AccumulationError([4096])[0].promoted < fp8AccumulationError([4096])[0].limited // true
 * @see DeepSeek-AI 2024, DeepSeek-V3 Technical Report §3.3.2 ("limited to retaining around 14 bits"; K = 4096: "a maximum
 *   relative error of nearly 2%"; N_C = 128); Micikevicius et al. 2017 §3.3 (accumulation precision)
 */
export function fp8AccumulationError(ks: readonly number[], options: { bits?: number; rounding?: Fp8GemmOptions["accumulatorRounding"]; promoteEvery?: number; m?: number; seed?: number } = {}): Fp8AccumulationPoint[] {
  const bits = options.bits ?? 14, P = options.promoteEvery ?? 128, m = options.m ?? 8, rounding = options.rounding ?? "nearest";
  const cast = fp8Rounder("fp8-e4m3");
  return ks.map((k) => {
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`ks must be integers >= 1, got ${k}`);
    const rng = mulberry32((options.seed ?? 7) + k);
    const operand = (rows: number, cols: number): Fp8Tiles => ({
      data: Float32Array.from({ length: rows * cols }, () => cast(rng())), rows, cols, tileRows: rows, tileCols: cols,
      scale: Float32Array.of(1), scaleInv: Float32Array.of(1), overflow: 0, underflow: 0,
    });
    const A = operand(m, k), B = operand(k, m);
    const exact = new Float64Array(m * m);
    for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) { let s = 0; for (let q = 0; q < k; q++) s += A.data[i * k + q] * B.data[q * m + j]; exact[i * m + j] = s; } // (m, m)
    const worst = (c: Float32Array) => c.reduce((w, v, i) => Math.max(w, exact[i] > 0 ? Math.abs(v - exact[i]) / exact[i] : 0), 0);
    return {
      k,
      fp32: worst(fp8Gemm(A, B)),
      limited: worst(fp8Gemm(A, B, { accumulatorBits: bits, accumulatorRounding: rounding })),
      promoted: worst(fp8Gemm(A, B, { accumulatorBits: bits, accumulatorRounding: rounding, promoteEvery: P })),
    };
  });
}
