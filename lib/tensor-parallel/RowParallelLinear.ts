import { matmul, type MatmulFn } from "../nn/index.js";
import type { TpComm } from "./comm.js";
import { gBackward, gForward, spAllGather, spReduceScatter } from "./mappings.js";
import { addBiasRows, checkRows, columnSums, divide, splitRows } from "./shard.js";
import type { ParallelLinearOptions } from "./ColumnParallelLinear.js";

/**
 * Y = X·B + b with B (in, out) split along the INPUT dimension: rank r holds
 * B_r = B[r·in/T … (r+1)·in/T), receives its column block X_r of X (already
 * split, as a column-parallel layer leaves it: Megatron's `input_is_parallel`),
 * computes the partial product X_r·B_r, and g sums the T partials (all-reduce;
 * with sequence parallelism a reduce-scatter into row blocks); the bias,
 * replicated, is added once after the sum (Shoeybi et al. 2019, eq. 3 and Fig. 3).
 * Backward: g's backward is the identity (with sequence parallelism an all-gather
 * of dY); dB_r = X_rᵀ·dY and dX_r = dY·B_rᵀ need no communication.
 *
 * Numerics (float32): Y is a sum over `in` re-associated into T partial sums and
 * the ring's additions: |ΔY| ≤ (in + T)·2⁻²³·Σ_k|X_k·B_k| per element; dB, db and dX
 * are bit-identical to the unsharded layer's blocks.
 *
 * @example
 * const comm = new TpComm(2);
 * const row = new RowParallelLinear(comm, new Float32Array([1, 2, 3, 4]), null, 2, 2);
 * row.forward([new Float32Array([1]), new Float32Array([1])], 1) // [[4, 6], [4, 6]]
 * @throws RangeError `inFeatures (3) must be divisible by T (2)`; `xs must hold one (rows, inFeatures/T) input per rank (T = 2), got 1`; `backward called before forward`
 * @see Shoeybi et al. 2019, *Megatron-LM*, §3; Megatron-LM megatron/core/tensor_parallel/layers.py `RowParallelLinear`
 */
export class RowParallelLinear {
  readonly T: number;
  readonly inFeatures: number;
  readonly outFeatures: number;
  /** Rank r's weight block (in/T, out). */
  readonly weights: Float32Array[];
  /** The bias (out), one copy per rank, or null. */
  readonly biases: Float32Array[] | null;
  readonly weightGrads: Float32Array[];
  readonly biasGrads: Float32Array[] | null;
  private readonly options: Required<Omit<ParallelLinearOptions, "matmul">> & { matmul: MatmulFn };
  private saved: { xs: Float32Array[]; rows: number } | null = null;

  /**
   * @param comm the tensor-parallel group
   * @param W the full weight (in, out), row-major
   * @param b the full bias (out), or null
   * @param inFeatures in, divisible by T
   * @param outFeatures out
   */
  constructor(readonly comm: TpComm, W: Float32Array, b: Float32Array | null, inFeatures: number, outFeatures: number, options: ParallelLinearOptions = {}) {
    this.T = comm.T;
    divide("inFeatures", inFeatures, this.T);
    checkRows("outFeatures", outFeatures);
    if (W.length !== inFeatures * outFeatures) throw new RangeError(`W must have inFeatures·outFeatures = ${inFeatures * outFeatures} elements, got ${W.length}`);
    if (b && b.length !== outFeatures) throw new RangeError(`b must have outFeatures = ${outFeatures} elements, got ${b.length}`);
    this.inFeatures = inFeatures;
    this.outFeatures = outFeatures;
    this.weights = splitRows(W, inFeatures, outFeatures, this.T);
    this.biases = b ? Array.from({ length: this.T }, () => b.slice()) : null;
    this.weightGrads = this.weights.map((w) => new Float32Array(w.length));
    this.biasGrads = this.biases ? this.biases.map((x) => new Float32Array(x.length)) : null;
    this.options = { gatherOutput: false, sequenceParallel: options.sequenceParallel ?? false, matmul: options.matmul ?? matmul };
  }

  /**
   * @param xs per rank: X_r (rows, in/T)
   * @param rows N
   * @returns per rank: Y (rows, out), the same on every rank; with sequence parallelism rank r's row block (rows/T, out)
   */
  forward(xs: readonly Float32Array[], rows: number): Float32Array[] {
    checkRows("rows", rows);
    const q = this.inFeatures / this.T, sp = this.options.sequenceParallel;
    if (sp) divide("rows", rows, this.T);
    if (xs.length !== this.T || xs.some((x) => x.length !== rows * q)) {
      throw new RangeError(`xs must hold one (rows, inFeatures/T) input per rank (T = ${this.T}), got ${xs.length}`);
    }
    this.saved = { xs: xs.map((x) => x.slice()), rows };
    const partial = xs.map((x, r) => this.options.matmul(x, this.weights[r], { M: rows, K: q, N: this.outFeatures }, "fp32"));
    const ys = sp ? spReduceScatter(this.comm, partial, "forward") : gForward(this.comm, partial);
    const outRows = sp ? rows / this.T : rows;
    if (this.biases) ys.forEach((y, r) => addBiasRows(y, this.biases![r], outRows, this.outFeatures));
    return ys;
  }

  /**
   * Adds dB_r = X_rᵀ·dY and db = Σ_rows dY into the gradients and returns dX_r.
   * @param dys per rank: dY (rows, out), the same on every rank; with sequence parallelism rank r's row block (rows/T, out)
   * @returns per rank: dX_r (rows, in/T)
   */
  backward(dys: readonly Float32Array[]): Float32Array[] {
    if (!this.saved) throw new RangeError("backward called before forward");
    const { xs, rows } = this.saved;
    const q = this.inFeatures / this.T, mm = this.options.matmul;
    const full = this.options.sequenceParallel ? spAllGather(this.comm, dys, "backward") : gBackward(dys);
    const dxs = full.map((dy, r) => {
      const dW = mm(xs[r], dy, { M: q, K: rows, N: this.outFeatures, transA: true }, "fp32");
      for (let i = 0; i < dW.length; i++) this.weightGrads[r][i] += dW[i];
      if (this.biasGrads) { const db = columnSums(dy, rows, this.outFeatures); for (let i = 0; i < db.length; i++) this.biasGrads[r][i] += db[i]; }
      return mm(dy, this.weights[r], { M: rows, K: this.outFeatures, N: q, transB: true }, "fp32");
    });
    this.saved = null;
    return dxs;
  }
}
