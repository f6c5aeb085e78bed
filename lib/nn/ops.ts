/**
 * Small elementwise helpers shared by the layers, each rounding its output
 * to the compute format.
 */
import { matmul } from "./matmul.js";
import { FP32, roundArray, type Precision } from "./precision.js";
import type { Activation, Ops } from "./types.js";

/**
 * The default ops: CPU matmul, with the given precision (fp32 if omitted).
 *
 * @param precision compute and accumulate formats
 * @returns an {@link Ops} record
 * @example
 * cpuOps({ compute: "bf16", accumulate: "fp32" });
 */
export function cpuOps(precision: Precision = FP32): Ops {
  return { precision, matmul };
}

/** A new activation of rows × cols zeros. */
export function zeros(rows: number, cols: number): Activation {
  return { data: new Float32Array(rows * cols), rows, cols };
}

/** y[r, :] += bias (in place), then rounds y to the compute format. */
export function addBias(y: Float32Array, bias: Float32Array, rows: number, cols: number, ops: Ops): void {
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) y[r * cols + c] += bias[c]; // (rows, cols)
  roundArray(ops.precision.compute, y);
}

/** grad[c] += Σ_r dy[r, c] (the bias gradient), summed in float64 then rounded to compute and added to the fp32 grad. */
export function addColumnSums(grad: Float32Array, dy: Activation, ops: Ops): void {
  const s = new Float32Array(dy.cols);
  const acc = new Float64Array(dy.cols);
  for (let r = 0; r < dy.rows; r++) for (let c = 0; c < dy.cols; c++) acc[c] += dy.data[r * dy.cols + c];
  s.set(acc);
  roundArray(ops.precision.compute, s);
  for (let c = 0; c < dy.cols; c++) grad[c] += s[c];
}

/** grad += g, where g (a weight-gradient contribution) is rounded to the compute format first. */
export function addInto(grad: Float32Array, g: Float32Array, ops: Ops): void {
  roundArray(ops.precision.compute, g);
  for (let i = 0; i < g.length; i++) grad[i] += g[i];
}
