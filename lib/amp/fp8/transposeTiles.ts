/**
 * Layout helpers for FP8 GEMM operands: a per-tensor cast seen as one tile,
 * and the transpose of a tiled operand (data and tile grid).
 */
import type { Fp8Quantized } from "./quantizeFp8.js";
import type { Fp8Tiles } from "./quantizeTiles.js";

/**
 * A per-tensor FP8 cast as a GEMM operand: one tile covering the (rows, cols) matrix.
 * @param q the cast (its data holds rows · cols values)
 * @param rows rows of the matrix
 * @param cols columns
 * @returns an {@link Fp8Tiles} with a single scale
 * @throws {RangeError} `q must hold rows · cols = 6 values, got 4`
 * @example perTensorTiles(quantizeFp8(Float32Array.of(1, 2), 4, "fp8-e4m3"), 1, 2).scaleInv // Float32Array [0.25]
 * @see TE Float8Tensor (one scale_inv per tensor)
 */
export function perTensorTiles(q: Fp8Quantized, rows: number, cols: number): Fp8Tiles {
  if (q.data.length !== rows * cols) throw new RangeError(`q must hold rows · cols = ${rows * cols} values, got ${q.data.length}`);
  return { data: q.data, rows, cols, tileRows: rows, tileCols: cols, scale: Float32Array.of(q.scale), scaleInv: Float32Array.of(q.scaleInv), overflow: q.overflow, underflow: q.underflow };
}

/**
 * The transpose of a tiled operand: data (cols, rows) and the tile grid transposed with it,
 * so element (c, r) keeps the scale of (r, c).
 * @param t a (rows, cols) operand
 * @returns a new (cols, rows) operand (the input is not modified)
 * @example transposeTiles(perTensorTiles(quantizeFp8(Float32Array.of(1, 2), 1, "fp8-e4m3"), 1, 2)).rows // 2
 * @see TE Float8BlockScaling / MXFP8 docs: a columnwise copy is needed for the transposed GEMM operand
 */
export function transposeTiles(t: Fp8Tiles): Fp8Tiles {
  const { rows, cols } = t, tr = Math.ceil(rows / t.tileRows), tc = Math.ceil(cols / t.tileCols);
  const data = new Float32Array(rows * cols), scale = new Float32Array(tr * tc), scaleInv = new Float32Array(tr * tc);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) data[c * rows + r] = t.data[r * cols + c]; // (cols, rows)
  for (let i = 0; i < tr; i++) for (let j = 0; j < tc; j++) { scale[j * tr + i] = t.scale[i * tc + j]; scaleInv[j * tr + i] = t.scaleInv[i * tc + j]; }
  return { data, rows: cols, cols: rows, tileRows: t.tileCols, tileCols: t.tileRows, scale, scaleInv, overflow: t.overflow, underflow: t.underflow };
}
