/**
 * Splitting a row-major (rows, cols) weight matrix across T ranks, and putting it back.
 * @see Shoeybi et al. 2019 §3 (A = [A1, A2] split by columns; B = [B1; B2] split by rows)
 */

/**
 * Checks that `size` splits evenly over T ranks.
 * @param name the field, used in the message
 * @param size the dimension being split
 * @param T ranks
 * @returns size / T
 * @throws RangeError `outFeatures (10) must be divisible by T (4)`
 * @example divide("outFeatures", 8, 4) // 2
 * @see Megatron-LM megatron/core/utils.py `divide` (asserts the same)
 */
export function divide(name: string, size: number, T: number): number {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`${name} must be an integer >= 1, got ${size}`);
  if (size % T !== 0) throw new RangeError(`${name} (${size}) must be divisible by T (${T})`);
  return size / T;
}

/**
 * Column blocks of a (rows, cols) matrix: rank r gets columns r·cols/T … (r+1)·cols/T − 1, as a (rows, cols/T) matrix.
 * @param m (rows, cols) row-major
 * @returns T new (rows, cols/T) matrices
 * @throws RangeError `cols (3) must be divisible by T (2)`; `m must have rows·cols = 6 elements, got 5`
 * @example splitColumns(new Float32Array([1, 2, 3, 4]), 1, 4, 2) // [[1, 2], [3, 4]]
 * @see Shoeybi et al. 2019 §3, eq. (3): A = [A1, A2]
 */
export function splitColumns(m: Float32Array, rows: number, cols: number, T: number): Float32Array[] {
  const c = divide("cols", cols, T);
  if (m.length !== rows * cols) throw new RangeError(`m must have rows·cols = ${rows * cols} elements, got ${m.length}`);
  return Array.from({ length: T }, (_, r) => {
    const out = new Float32Array(rows * c);
    for (let i = 0; i < rows; i++) out.set(m.subarray(i * cols + r * c, i * cols + (r + 1) * c), i * c);
    return out;
  });
}

/**
 * Row blocks of a (rows, cols) matrix: rank r gets rows r·rows/T … (r+1)·rows/T − 1.
 * @param m (rows, cols) row-major
 * @returns T new (rows/T, cols) matrices
 * @throws RangeError `rows (3) must be divisible by T (2)`
 * @example splitRows(new Float32Array([1, 2, 3, 4]), 2, 2, 2) // [[1, 2], [3, 4]]
 * @see Shoeybi et al. 2019 §3: B = [B1; B2]
 */
export function splitRows(m: Float32Array, rows: number, cols: number, T: number): Float32Array[] {
  const q = divide("rows", rows, T);
  if (m.length !== rows * cols) throw new RangeError(`m must have rows·cols = ${rows * cols} elements, got ${m.length}`);
  return Array.from({ length: T }, (_, r) => m.slice(r * q * cols, (r + 1) * q * cols));
}

/**
 * Inverse of {@link splitColumns}: concatenates T (rows, c) blocks side by side into (rows, T·c).
 * @returns a new (rows, T·c) matrix
 * @example concatColumns([new Float32Array([1, 2]), new Float32Array([3, 4])], 1) // [1, 2, 3, 4]
 * @see {@link splitColumns}
 */
export function concatColumns(blocks: readonly Float32Array[], rows: number): Float32Array {
  const c = blocks[0].length / rows, T = blocks.length;
  const out = new Float32Array(rows * c * T);
  for (let r = 0; r < T; r++) for (let i = 0; i < rows; i++) out.set(blocks[r].subarray(i * c, (i + 1) * c), i * c * T + r * c);
  return out;
}

/**
 * Inverse of {@link splitRows}: stacks T row blocks.
 * @returns a new matrix
 * @example concatRows([new Float32Array([1, 2]), new Float32Array([3, 4])]) // [1, 2, 3, 4]
 * @see {@link splitRows}
 */
export function concatRows(blocks: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(blocks.reduce((s, b) => s + b.length, 0));
  let o = 0;
  for (const b of blocks) { out.set(b, o); o += b.length; }
  return out;
}

/**
 * Adds the bias b (cols) to every row of y (rows, cols), in place.
 * @param y (rows, cols) row-major, written
 * @param b (cols)
 * @example addBiasRows(y = new Float32Array([1, 2, 3, 4]), new Float32Array([10, 20]), 2, 2) // y = [11, 22, 13, 24]
 * @see Shoeybi et al. 2019 §3 (the row-parallel bias is added once, after g)
 */
export function addBiasRows(y: Float32Array, b: Float32Array, rows: number, cols: number): void {
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) y[i * cols + j] += b[j];
}

/**
 * Column sums of d (rows, cols), accumulated in float64 and rounded once: the bias gradient Σ_rows dY.
 * @returns a new (cols) array
 * @example columnSums(new Float32Array([1, 2, 3, 4]), 2, 2) // [4, 6]
 * @see Shoeybi et al. 2019 §3
 */
export function columnSums(d: Float32Array, rows: number, cols: number): Float32Array {
  const acc = new Float64Array(cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) acc[j] += d[i * cols + j];
  return Float32Array.from(acc);
}

/**
 * Checks a row or feature count.
 * @throws RangeError `rows must be an integer >= 1, got 0`
 * @example checkRows("rows", 3) // no error
 * @see {@link divide}
 */
export function checkRows(name: string, rows: number): void {
  if (!Number.isInteger(rows) || rows < 1) throw new RangeError(`${name} must be an integer >= 1, got ${rows}`);
}
