/**
 * Block-wise FP8 quantization with online (current) scales: every tile of a
 * matrix gets the scale of its own amax, as DeepSeek-V3 quantizes activations
 * (1 × 128 tiles) and weights (128 × 128 blocks).
 */
import type { Fp8FormatName } from "../../precision/fp8Rounder.js";
import { fp8Max } from "./DelayedScaling.js";
import { quantizeFp8 } from "./quantizeFp8.js";
import { scaleFromAmax, type ScaleFromAmaxOptions } from "./scaleFromAmax.js";

/** A matrix cast to FP8 tile by tile. */
export interface Fp8Tiles {
  /** (rows, cols) row-major FP8 values; element (r, c) ≈ data · scaleInv of its tile. */
  data: Float32Array;
  rows: number;
  cols: number;
  tileRows: number;
  tileCols: number;
  /** (⌈rows/tileRows⌉, ⌈cols/tileCols⌉) row-major: one scale per tile. */
  scale: Float32Array;
  /** fp32(1 / scale) per tile. */
  scaleInv: Float32Array;
  /** Elements that saturated (zero with online scales, unless a tile holds ±Infinity). */
  overflow: number;
  /** Nonzero elements that became ±0. */
  underflow: number;
}

/**
 * Casts a (rows, cols) matrix to FP8 with one online scale per tile of
 * (tileRows, tileCols): scale = fp8Max / amax(tile) (TE's `compute_scale_from_amax`,
 * a power of two by default as in TE's Float8BlockScaling), then
 * q = fp8(fp32(x · scale)), saturating. Edge tiles may be smaller.
 * @param values (rows, cols) row-major, not modified
 * @param rows rows of the matrix, integer >= 1
 * @param cols columns, integer >= 1
 * @param tile `{rows, cols}` of a tile, integers >= 1 (1 × 128: DeepSeek-V3's activation tiles; 128 × 128: its weight blocks)
 * @param format "fp8-e4m3" | "fp8-e5m2"
 * @param options `{powerOf2Scales}` (default true) and `{amaxEpsilon}` (default 0)
 * @returns the FP8 values, the per-tile scales and the counts
 * @throws {RangeError} `values must hold rows · cols = 6 elements, got 5`; `tile.rows must be an integer >= 1, got 0` (likewise cols, rows, tile.cols)
 * @example quantizeTiles(Float32Array.of(1, 2, 300, 600), 2, 2, { rows: 1, cols: 2 }, "fp8-e4m3").scale
 *   // Float32Array [128, 0.5]: row 0's amax 2 → 224 → 128; row 1's amax 600 → 0.7467 → 0.5
 * @see DeepSeek-AI 2024, DeepSeek-V3 Technical Report (arXiv:2412.19437), §3.3.2 "Fine-Grained Quantization";
 *   NVIDIA/TransformerEngine recipe/__init__.py `Float8BlockScaling` (x 1D blocks, w 2D blocks, power-of-2 scales) at d8815c4
 */
export function quantizeTiles(values: Float32Array, rows: number, cols: number, tile: { rows: number; cols: number }, format: Fp8FormatName, options: ScaleFromAmaxOptions = {}): Fp8Tiles {
  for (const [k, v] of [["rows", rows], ["cols", cols], ["tile.rows", tile?.rows], ["tile.cols", tile?.cols]] as const) {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`${k} must be an integer >= 1, got ${v}`);
  }
  if (values.length !== rows * cols) throw new RangeError(`values must hold rows · cols = ${rows * cols} elements, got ${values.length}`);
  const max = fp8Max(format), scaleOptions = { powerOf2Scales: true, ...options };
  const tr = Math.ceil(rows / tile.rows), tc = Math.ceil(cols / tile.cols);
  const data = new Float32Array(rows * cols), scale = new Float32Array(tr * tc), scaleInv = new Float32Array(tr * tc);
  let overflow = 0, underflow = 0;
  for (let bi = 0; bi < tr; bi++) for (let bj = 0; bj < tc; bj++) {
    const r0 = bi * tile.rows, r1 = Math.min(rows, r0 + tile.rows), c0 = bj * tile.cols, c1 = Math.min(cols, c0 + tile.cols);
    const block = new Float32Array((r1 - r0) * (c1 - c0)); // the tile's elements, (r1 − r0, c1 − c0)
    for (let r = r0; r < r1; r++) block.set(values.subarray(r * cols + c0, r * cols + c1), (r - r0) * (c1 - c0));
    let amax = 0;
    for (const x of block) if (Math.abs(x) > amax) amax = Math.abs(x); // NaN ignored
    const q = quantizeFp8(block, scaleFromAmax(amax, max, scaleOptions), format);
    for (let r = r0; r < r1; r++) data.set(q.data.subarray((r - r0) * (c1 - c0), (r - r0 + 1) * (c1 - c0)), r * cols + c0);
    scale[bi * tc + bj] = q.scale;
    scaleInv[bi * tc + bj] = q.scaleInv;
    overflow += q.overflow;
    underflow += q.underflow;
  }
  return { data, rows, cols, tileRows: tile.rows, tileCols: tile.cols, scale, scaleInv, overflow, underflow };
}
