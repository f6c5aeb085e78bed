/**
 * A controlled outlier channel: one input channel of a linear layer is
 * multiplied by F = 2^k and the matching row of its weight divided by F.
 * The layer computes the same product (exactly, F being a power of two), but
 * the activation the FP8 cast sees now has a channel F times larger.
 */

/**
 * Where and when the outlier appears.
 * @see Xiao et al. 2023, SmoothQuant (the same per-channel rescaling between activation and weight, used the other way, to remove outliers)
 */
export interface OutlierChannel {
  /** Name of the linear weight whose input gets the outlier, e.g. "blocks.0.W1". */
  weight: string;
  /** Input channel (row of the weight), integer in [0, in features). */
  channel: number;
  /** k: the factor is 2^k at the outlier's steps, integer in [1, 60]. */
  log2Factor: number;
  /** The outlier appears at steps s with s mod period = period − 1 (default 1: every step). */
  period?: number;
}

/**
 * The factor F of step `step`: 2^log2Factor at the outlier's steps, 1 otherwise.
 * @param o the outlier (or undefined: always 1)
 * @param step the step, integer >= 0
 * @returns F
 * @throws {RangeError} `outlier.log2Factor must be an integer in [1, 60], got 0`; `outlier.period must be an integer >= 1, got 0`;
 *   `outlier.channel must be an integer >= 0, got -1`
 * @example outlierFactor({ weight: "blocks.0.W1", channel: 3, log2Factor: 6, period: 10 }, 9) // 64
 * @example outlierFactor({ weight: "blocks.0.W1", channel: 3, log2Factor: 6, period: 10 }, 10) // 1
 * @see {@link OutlierChannel}
 */
export function outlierFactor(o: OutlierChannel | undefined, step: number): number {
  if (!o) return 1;
  const period = o.period ?? 1;
  if (!Number.isInteger(o.log2Factor) || o.log2Factor < 1 || o.log2Factor > 60) throw new RangeError(`outlier.log2Factor must be an integer in [1, 60], got ${o.log2Factor}`);
  if (!Number.isInteger(period) || period < 1) throw new RangeError(`outlier.period must be an integer >= 1, got ${period}`);
  if (!Number.isInteger(o.channel) || o.channel < 0) throw new RangeError(`outlier.channel must be an integer >= 0, got ${o.channel}`);
  return step % period === period - 1 ? 2 ** o.log2Factor : 1;
}

/**
 * A copy of a (rows, cols) row-major matrix with column `col` multiplied by `factor`.
 * @param a (rows, cols) values, not modified
 * @param rows rows
 * @param cols columns
 * @param col the column, integer in [0, cols)
 * @param factor the multiplier (a power of two keeps it exact)
 * @returns the new matrix
 * @throws {RangeError} `col must be an integer in [0, 4), got 4`
 * @example scaleColumn(Float32Array.of(1, 2, 3, 4), 2, 2, 1, 8) // Float32Array [1, 16, 3, 32]
 * @see {@link OutlierChannel}
 */
export function scaleColumn(a: Float32Array, rows: number, cols: number, col: number, factor: number): Float32Array {
  if (!Number.isInteger(col) || col < 0 || col >= cols) throw new RangeError(`col must be an integer in [0, ${cols}), got ${col}`);
  const out = Float32Array.from(a);
  for (let r = 0; r < rows; r++) out[r * cols + col] *= factor; // (rows, cols)
  return out;
}

/**
 * A copy of a (rows, cols) row-major matrix with row `row` multiplied by `factor`.
 * @param a (rows, cols) values, not modified
 * @param cols columns
 * @param row the row, integer in [0, rows)
 * @param factor the multiplier
 * @returns the new matrix
 * @throws {RangeError} `row must be an integer in [0, 2), got 2`
 * @example scaleRow(Float32Array.of(1, 2, 3, 4), 2, 0, 0.5) // Float32Array [0.5, 1, 3, 4]
 * @see {@link OutlierChannel}
 */
export function scaleRow(a: Float32Array, cols: number, row: number, factor: number): Float32Array {
  const rows = a.length / cols;
  if (!Number.isInteger(row) || row < 0 || row >= rows) throw new RangeError(`row must be an integer in [0, ${rows}), got ${row}`);
  const out = Float32Array.from(a);
  for (let c = 0; c < cols; c++) out[row * cols + c] *= factor;
  return out;
}
