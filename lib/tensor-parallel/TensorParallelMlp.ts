import type { TpComm } from "./comm.js";
import { ColumnParallelLinear, type ParallelLinearOptions } from "./ColumnParallelLinear.js";
import { RowParallelLinear } from "./RowParallelLinear.js";

/**
 * The weights of lib/nn's residual MLP block y = x + tanh(x·W1 + b1)·W2 + b2.
 * @see lib/nn/residualMlp.ts
 */
export interface MlpWeights {
  /** (h, H) */
  W1: Float32Array;
  /** (H) */
  b1: Float32Array;
  /** (H, h) */
  W2: Float32Array;
  /** (h) */
  b2: Float32Array;
}

/**
 * lib/nn's residual MLP block on T ranks, as Megatron splits a transformer MLP
 * (Shoeybi et al. 2019, §3, Figure 3a): W1 column-parallel, tanh on each rank's
 * own (N, H/T) columns, W2 row-parallel; no communication between the two
 * layers; f before (all-reduce of dX in backward) and g after (all-reduce of the
 * output in forward). With sequence parallelism x and y are row blocks (N/T, h)
 * and f, g become all-gather / reduce-scatter pairs.
 *
 * Equals the unsharded block within the float32 bounds of {@link RowParallelLinear}
 * (forward) and {@link ColumnParallelLinear} (dX); see the tests.
 * @example
 * const mlp = new TensorParallelMlp(new TpComm(2), weights, 4, 8); // h = 4, H = 8
 * const ys = mlp.forward([x, x], 3); mlp.backward([dy, dy]); // ys[0] equals ys[1]; mlp.comm.log: one g forward, one f backward
 * @throws RangeError `outFeatures (6) must be divisible by T (4)` (H not divisible by T), and the layers' shape errors
 * @see Shoeybi et al. 2019, *Megatron-LM*, §3 (MLP: GeLU after a column split needs no synchronisation); Megatron-LM megatron/core/transformer/mlp.py
 */
export class TensorParallelMlp {
  readonly col: ColumnParallelLinear;
  readonly row: RowParallelLinear;
  private saved: { acts: Float32Array[] } | null = null;

  /**
   * @param comm the group
   * @param w the full weights (split here)
   * @param h width
   * @param H inner width, divisible by T
   * @param options sequenceParallel and matmul
   */
  constructor(readonly comm: TpComm, w: MlpWeights, readonly h: number, readonly H: number, options: Omit<ParallelLinearOptions, "gatherOutput"> = {}) {
    this.col = new ColumnParallelLinear(comm, w.W1, w.b1, h, H, { ...options, gatherOutput: false });
    this.row = new RowParallelLinear(comm, w.W2, w.b2, H, h, options);
  }

  /**
   * @param xs per rank: x (N, h), the same on every rank; with sequence parallelism rank r's row block (N/T, h)
   * @param rows N
   * @returns per rank: y (N, h), or rank r's row block with sequence parallelism
   */
  forward(xs: readonly Float32Array[], rows: number): Float32Array[] {
    const a = this.col.forward(xs, rows).map((u) => u.map(Math.tanh));
    this.saved = { acts: a };
    const z = this.row.forward(a, rows);
    return z.map((zr, r) => zr.map((v, i) => v + xs[r][i]));
  }

  /**
   * Adds the weight gradients into the layers' grads.
   * @param dys per rank: dy like the output of forward
   * @returns per rank: dx like the input of forward
   */
  backward(dys: readonly Float32Array[]): Float32Array[] {
    if (!this.saved) throw new RangeError("backward called before forward");
    const da = this.row.backward(dys);
    const du = da.map((d, r) => d.map((v, i) => v * (1 - this.saved!.acts[r][i] * this.saved!.acts[r][i])));
    this.saved = null;
    const dx = this.col.backward(du);
    return dx.map((d, r) => d.map((v, i) => v + dys[r][i]));
  }
}
