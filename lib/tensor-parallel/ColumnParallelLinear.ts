import { matmul, type MatmulFn } from "../nn/index.js";
import type { TpComm } from "./comm.js";
import { fBackward, fForward, spAllGather, spReduceScatter } from "./mappings.js";
import { addBiasRows, checkRows, columnSums, concatColumns, divide, splitColumns } from "./shard.js";

/**
 * Options of {@link ColumnParallelLinear} and {@link RowParallelLinear} (RowParallelLinear.ts).
 * @see Megatron-LM megatron/core/tensor_parallel/layers.py (`gather_output`, `input_is_parallel`, `sequence_parallel`)
 */
export interface ParallelLinearOptions {
  /** Column-parallel only: all-gather the (N, out/T) outputs into (N, out) on every rank (Megatron `gather_output`, default false). */
  gatherOutput?: boolean;
  /** Sequence parallelism: the column layer's input and the row layer's output are row blocks (N/T, ·) (default false). */
  sequenceParallel?: boolean;
  /** The matrix product (default lib/nn's CPU `matmul`; a gpu.js kernel from lib/nn/createGpuMatmul.ts fits). */
  matmul?: MatmulFn;
}

/**
 * Y = X·A + b with A (in, out) split along the OUTPUT dimension: rank r holds
 * A_r = A[:, r·out/T … (r+1)·out/T) and b_r, and computes Y_r = X·A_r + b_r
 * (Shoeybi et al. 2019, eq. 3). The input goes through f (identity forward,
 * all-reduce of dX backward); with sequence parallelism f becomes an all-gather of
 * the row blocks forward and a reduce-scatter backward, and the sharded input is
 * gathered again in backward for dA, as Megatron does to keep only 1/T of it.
 *
 * Numerics (float32): the forward output equals the unsharded layer bit for bit
 * (each output column is the same dot product, summed in the same order); dA and
 * db are bit-identical too; dX is a sum of T partial products re-associated by
 * the ring all-reduce, so |ΔdX| ≤ (out + T)·2⁻²³·Σ|dY·A| per element.
 *
 * @example
 * const comm = new TpComm(2);
 * const col = new ColumnParallelLinear(comm, new Float32Array([1, 2, 3, 4]), null, 1, 4);
 * col.forward([new Float32Array([2]), new Float32Array([2])], 1) // [[2, 4], [6, 8]]
 * @throws RangeError `outFeatures (6) must be divisible by T (4)`; `W must have inFeatures·outFeatures = 8 elements, got 6`;
 *   `xs must hold one (rows, inFeatures) input per rank (T = 2), got 1`; `backward called before forward`
 * @see Shoeybi et al. 2019, *Megatron-LM*, §3; Megatron-LM megatron/core/tensor_parallel/layers.py `ColumnParallelLinear`
 */
export class ColumnParallelLinear {
  readonly T: number;
  readonly inFeatures: number;
  readonly outFeatures: number;
  /** Rank r's weight block (in, out/T). */
  readonly weights: Float32Array[];
  /** Rank r's bias block (out/T), or null. */
  readonly biases: Float32Array[] | null;
  /** Gradients of the blocks, accumulated by backward (like PyTorch's `.grad`). */
  readonly weightGrads: Float32Array[];
  readonly biasGrads: Float32Array[] | null;
  private readonly options: Required<Omit<ParallelLinearOptions, "matmul">> & { matmul: MatmulFn };
  private saved: { xs: Float32Array[]; rows: number } | null = null;

  /**
   * @param comm the tensor-parallel group
   * @param W the full weight (in, out), row-major (split, not kept)
   * @param b the full bias (out), or null
   * @param inFeatures in
   * @param outFeatures out, divisible by T
   */
  constructor(readonly comm: TpComm, W: Float32Array, b: Float32Array | null, inFeatures: number, outFeatures: number, options: ParallelLinearOptions = {}) {
    this.T = comm.T;
    checkRows("inFeatures", inFeatures);
    divide("outFeatures", outFeatures, this.T);
    if (W.length !== inFeatures * outFeatures) throw new RangeError(`W must have inFeatures·outFeatures = ${inFeatures * outFeatures} elements, got ${W.length}`);
    if (b && b.length !== outFeatures) throw new RangeError(`b must have outFeatures = ${outFeatures} elements, got ${b.length}`);
    this.inFeatures = inFeatures;
    this.outFeatures = outFeatures;
    this.weights = splitColumns(W, inFeatures, outFeatures, this.T);
    this.biases = b ? splitColumns(b, 1, outFeatures, this.T) : null;
    this.weightGrads = this.weights.map((w) => new Float32Array(w.length));
    this.biasGrads = this.biases ? this.biases.map((x) => new Float32Array(x.length)) : null;
    this.options = { gatherOutput: options.gatherOutput ?? false, sequenceParallel: options.sequenceParallel ?? false, matmul: options.matmul ?? matmul };
  }

  /**
   * @param xs per rank: the input (rows, in), the same on every rank; with sequence parallelism rank r's row block (rows/T, in)
   * @param rows N, the full number of rows (tokens)
   * @returns per rank: Y_r (rows, out/T), or the gathered Y (rows, out) with `gatherOutput`
   */
  forward(xs: readonly Float32Array[], rows: number): Float32Array[] {
    checkRows("rows", rows);
    const { sequenceParallel: sp, gatherOutput } = this.options;
    if (sp) divide("rows", rows, this.T);
    const expect = sp ? (rows / this.T) * this.inFeatures : rows * this.inFeatures;
    if (xs.length !== this.T || xs.some((x) => x.length !== expect)) {
      throw new RangeError(`xs must hold one (${sp ? "rows/T" : "rows"}, inFeatures) input per rank (T = ${this.T}), got ${xs.length}`);
    }
    this.saved = { xs: xs.map((x) => x.slice()), rows };
    const full = sp ? spAllGather(this.comm, xs, "forward") : fForward(xs);
    const c = this.outFeatures / this.T;
    const ys = full.map((x, r) => {
      const y = this.options.matmul(x, this.weights[r], { M: rows, K: this.inFeatures, N: c }, "fp32");
      if (this.biases) addBiasRows(y, this.biases[r], rows, c);
      return y;
    });
    if (!gatherOutput) return ys;
    // all-gather along the last dimension: gather the blocks, then lay them side by side
    const gathered = this.comm.allGather(ys, "forward", "gather-output");
    return gathered.map((g) => concatColumns(Array.from({ length: this.T }, (_, r) => g.subarray(r * rows * c, (r + 1) * rows * c)), rows));
  }

  /**
   * Adds dA_r = Xᵀ·dY_r and db_r = Σ_rows dY_r into the gradients and returns dX.
   * @param dys per rank: dY_r (rows, out/T); with `gatherOutput`, the full dY (rows, out) on every rank (each rank takes its columns)
   * @returns per rank: dX (rows, in) after f's all-reduce; with sequence parallelism rank r's block (rows/T, in) after the reduce-scatter
   */
  backward(dys: readonly Float32Array[]): Float32Array[] {
    if (!this.saved) throw new RangeError("backward called before forward");
    const { xs, rows } = this.saved;
    const c = this.outFeatures / this.T, mm = this.options.matmul;
    const own = this.options.gatherOutput ? dys.map((d, r) => splitColumns(d, rows, this.outFeatures, this.T)[r]) : dys;
    const full = this.options.sequenceParallel ? spAllGather(this.comm, xs, "backward") : xs;
    const partial = own.map((dy, r) => {
      const dW = mm(full[r], dy, { M: this.inFeatures, K: rows, N: c, transA: true }, "fp32");
      for (let i = 0; i < dW.length; i++) this.weightGrads[r][i] += dW[i];
      if (this.biasGrads) { const db = columnSums(dy, rows, c); for (let i = 0; i < c; i++) this.biasGrads[r][i] += db[i]; }
      return mm(dy, this.weights[r], { M: rows, K: c, N: this.inFeatures, transB: true }, "fp32");
    });
    this.saved = null;
    return this.options.sequenceParallel ? spReduceScatter(this.comm, partial, "backward") : fBackward(this.comm, partial);
  }
}
