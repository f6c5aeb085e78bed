/**
 * Small elementwise helpers shared by the layers, each rounding its output
 * to the compute format.
 */
import { matmul } from "./matmul.js";
import { FP32, roundArrayWith, type Precision } from "./precision.js";
import type { Activation, Ops } from "./types.js";

/**
 * The default ops: CPU matmul, with the given precision (fp32 if omitted).
 *
 * @param precision compute and accumulate formats (not validated here: see {@link checkPrecision})
 * @returns an {@link Ops} record `{precision, matmul}`
 * @example
 * cpuOps({ compute: "bf16", accumulate: "fp32" }).precision; // { compute: "bf16", accumulate: "fp32" }
 * @see Micikevicius et al. 2017, Mixed Precision Training (low-precision compute, fp32 accumulation)
 */
export function cpuOps(precision: Precision = FP32): Ops {
  return { precision, matmul };
}

/**
 * A new activation of rows × cols zeros (float32).
 *
 * @param rows number of rows N (integer >= 0)
 * @param cols number of columns (integer >= 0)
 * @returns `{data, rows, cols}` with data a zeroed Float32Array of rows·cols elements, (rows, cols) row-major
 * @throws {RangeError} `rows must be an integer >= 0, got -1` (likewise cols)
 * @example
 * zeros(2, 3).data; // Float32Array [0, 0, 0, 0, 0, 0]
 * @see PyTorch torch.zeros docs
 */
export function zeros(rows: number, cols: number): Activation {
  for (const [k, v] of [["rows", rows], ["cols", cols]] as const) {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`${k} must be an integer >= 0, got ${v}`);
  }
  return { data: new Float32Array(rows * cols), rows, cols };
}

/**
 * Adds `bias` to every row of `y` in place, then rounds y to the compute format: y[r, c] ← round(y[r, c] + bias[c]).
 *
 * @param y (rows, cols) row-major, modified
 * @param bias (cols)
 * @param rows N
 * @param cols output features
 * @param ops its `precision.compute` is the rounding format
 * @returns nothing (`y` is updated)
 * @throws {RangeError} `format must be one of fp32, fp16, bf16, got "<x>"` (from {@link roundArray}) on an unknown compute format
 * @example
 * const y = Float32Array.of(1, 2, 3, 4); addBias(y, Float32Array.of(10, 20), 2, 2, cpuOps()); y; // Float32Array [11, 22, 13, 24]
 * @see PyTorch torch.nn.Linear docs (y = xAᵀ + b)
 */
export function addBias(y: Float32Array, bias: Float32Array, rows: number, cols: number, ops: Ops): void {
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) y[r * cols + c] += bias[c]; // (rows, cols)
  roundCompute(y, ops);
}

/**
 * Accumulates the bias gradient: grad[c] += round(Σ_r dy[r, c]), summed in float64, rounded to the compute format, added to the fp32 grad.
 *
 * @param grad (cols) fp32 bias gradient, modified
 * @param dy (rows, cols) gradient of the layer output
 * @param ops its `precision.compute` is the rounding format
 * @returns nothing (`grad` is updated)
 * @throws {RangeError} `format must be one of fp32, fp16, bf16, got "<x>"` (from {@link roundArray}) on an unknown compute format
 * @example
 * const g = new Float32Array(2); addColumnSums(g, { data: Float32Array.of(1, 2, 3, 4), rows: 2, cols: 2 }, cpuOps()); g; // Float32Array [4, 6]
 * @see PyTorch torch.nn.Linear docs (y = xAᵀ + b, so ∂L/∂b sums ∂L/∂y over the rows); PyTorch torch.Tensor.backward docs (gradients accumulate into .grad)
 */
export function addColumnSums(grad: Float32Array, dy: Activation, ops: Ops): void {
  const s = new Float32Array(dy.cols);
  const acc = new Float64Array(dy.cols);
  for (let r = 0; r < dy.rows; r++) for (let c = 0; c < dy.cols; c++) acc[c] += dy.data[r * dy.cols + c];
  s.set(acc);
  roundCompute(s, ops);
  for (let c = 0; c < dy.cols; c++) grad[c] += s[c];
}

/**
 * Accumulates a weight-gradient contribution: g is rounded to the compute format in place, then grad += g.
 *
 * @param grad fp32 gradient, modified (same length as g)
 * @param g the contribution, rounded in place
 * @param ops its `precision.compute` is the rounding format
 * @returns nothing (`grad` and `g` are updated)
 * @throws {RangeError} `format must be one of fp32, fp16, bf16, got "<x>"` (from {@link roundArray}) on an unknown compute format
 * @example
 * const grad = Float32Array.of(1); addInto(grad, Float32Array.of(1.01171875), cpuOps({ compute: "bf16", accumulate: "fp32" })); grad; // Float32Array [2.015625]
 * @see PyTorch torch.Tensor.backward docs (gradients accumulate into .grad); Micikevicius et al. 2017, Mixed Precision Training (low-precision gradients, fp32 master copy)
 */
export function addInto(grad: Float32Array, g: Float32Array, ops: Ops): void {
  roundCompute(g, ops);
  for (let i = 0; i < g.length; i++) grad[i] += g[i];
}

/**
 * Rounds `a` in place to the compute format of `ops`, with `ops.quantize` when it is set
 * (fp16/bf16 only), and returns it.
 *
 * @param a values, overwritten
 * @param ops its `precision.compute` is the format, its optional `quantize` the rounding
 * @returns `a`
 * @throws {RangeError} `format must be one of fp32, fp16, bf16, got "<x>"`; the hook's length message (see roundArrayWith)
 * @example
 * roundCompute(Float32Array.of(1.01171875), cpuOps({ compute: "bf16", accumulate: "fp32" })); // Float32Array [1.015625]
 * @see lib/precision `castArray`; IEEE 754-2008 §4.3.1
 */
export function roundCompute(a: Float32Array, ops: Ops): Float32Array {
  return roundArrayWith(ops.precision.compute, a, ops.quantize);
}
