/**
 * lib/nn's causal self-attention layer run context-parallel on C simulated
 * ranks: each rank projects its own tokens, ring attention joins them, and the
 * weight gradients are summed over the ranks (the CP ranks of Megatron's
 * data-parallel gradient reduction).
 */
import type { Activation, Layer, Ops } from "../nn/types.js";
import { ringAllReduce } from "../collectives/ringAllReduce.js";
import type { CollectiveResult } from "../collectives/collectiveResult.js";
import { createRing, type SimulatedRing } from "./createRing.js";
import { ringAttention } from "./ringAttention.js";
import { sequenceShards, type CpLayout } from "./sequenceShards.js";
import { gatherSequence, shardSequence } from "./shardSequence.js";

/**
 * Options of {@link contextParallelLayer}.
 * @see the sources of {@link contextParallelLayer}
 */
export interface CpLayerOptions {
  cpSize: number;
  layout: CpLayout;
  /** The attention of the ranks (default: the lib's {@link ringAttention}; exercise 13.1 plugs in a student's). */
  attention?: typeof ringAttention;
}

/**
 * A {@link Layer} that also exposes the last step's communication.
 * @see the sources of {@link contextParallelLayer}
 */
export interface CpLayer extends Layer {
  /** The ring of the last forward or backward call (its log). */
  lastRing: SimulatedRing | null;
  /** The all-reduce of the weight gradients in the last backward call. */
  lastGradAllReduce: CollectiveResult | null;
}

/**
 * Wraps a lib/nn `selfAttention` layer (weights Wq, Wk, Wv, Wo, (d, d) each; input rows of ctx positions × d)
 * as a context-parallel layer over cpSize ranks with the given layout.
 *
 * Forward, for every rank r with positions P_r of each window: X_r = x[:, P_r], Q_r = X_r Wq, K_r = X_r Wk,
 * V_r = X_r Wv (weights replicated), O_r from `attention` over the ring (causal in global positions), y at P_r
 * = X_r + O_r Wo. Backward: each rank gets dY_r, computes dWo_r = O_rᵀ dY_r and dO_r = dY_r Woᵀ, runs
 * `attention` again with dO (it recomputes the forward pass) for dq, dk, dv, and dW{q,k,v}_r = X_rᵀ d{q,k,v}_r;
 * the four weight gradients of the C ranks are summed by one ring all-reduce and added to the weights'
 * `.grad`. Only float32 ops (cpuOps()).
 * @param layer a lib/nn self-attention layer (its parameters are shared, not copied)
 * @param o cpSize, layout, attention
 * @returns the CP layer: same params, same input and output shapes
 * @throws RangeError `layer must be a self-attention layer, got linear`; from sequenceShards at the first call,
 *   e.g. `seqLen (8) must be divisible by 2·cpSize (16) for the zigzag layout`
 * @example const cp = contextParallelLayer(model.layers[1], {cpSize: 2, layout: "zigzag"}); cp.forward(x, cpuOps()).y
 *   // equals model.layers[1].forward(x, cpuOps()).y within 1e-6
 * @see Megatron-LM `megatron/core/parallel_state.py` `initialize_model_parallel` (CP ranks hold replicated weights; their
 *   gradients are all-reduced with the data-parallel group), commit d98e8a6; lib/nn/selfAttention.ts
 */
export function contextParallelLayer(layer: Layer, o: CpLayerOptions): CpLayer {
  if (layer.kind !== "self-attention") throw new RangeError(`layer must be a self-attention layer, got ${layer.kind}`);
  const [Wq, Wk, Wv, Wo] = layer.params;
  const d = Wq.shape[0], ctx = layer.inFeatures / d, C = o.cpSize;
  const attention = o.attention ?? ringAttention;
  const mm = (ops: Ops, a: Float32Array, b: Float32Array, M: number, K: number, N: number, t: { transA?: boolean; transB?: boolean } = {}) =>
    ops.matmul(a, b, { M, K, N, ...t }, ops.precision.accumulate);
  const self: CpLayer = {
    ...layer, lastRing: null, lastGradAllReduce: null,
    forward(x: Activation, ops: Ops) {
      const N = x.rows, shards = sequenceShards(ctx, C, o.layout), n = ctx / C, dims = { B: N, H: 1, N: ctx, d };
      const X = shards.map((p) => shardSequence(x.data, dims, p)); // (N, 1, n, d) per rank
      const [Q, K, V] = [Wq, Wk, Wv].map((W) => X.map((Xr) => mm(ops, Xr, W.data, N * n, d, d)));
      self.lastRing = createRing(C);
      const res = attention(self.lastRing, shards.map((positions, r) => ({ q: Q[r], k: K[r], v: V[r], positions })), { B: N, H: 1, n, d }, { causal: true });
      const O = res.map((rr) => rr.O);
      const Y = O.map((Or, r) => { const y = mm(ops, Or, Wo.data, N * n, d, d); for (let i = 0; i < y.length; i++) y[i] += X[r][i]; return y; });
      return { y: { data: gatherSequence(Y, dims, shards), rows: N, cols: ctx * d }, saved: { x, extra: [...X, ...Q, ...K, ...V, ...O], bytes: 0 } };
    },
    backward(saved, dy: Activation, ops: Ops) {
      const N = saved.x.rows, shards = sequenceShards(ctx, C, o.layout), n = ctx / C, dims = { B: N, H: 1, N: ctx, d };
      const part = (k: number) => saved.extra.slice(k * C, (k + 1) * C);
      const [X, Q, K, V, O] = [0, 1, 2, 3, 4].map(part);
      const dY = shards.map((p) => shardSequence(dy.data, dims, p));
      const dO = dY.map((g) => mm(ops, g, Wo.data, N * n, d, d, { transB: true })); // dY Woᵀ
      self.lastRing = createRing(C);
      const g = attention(self.lastRing, shards.map((positions, r) => ({ q: Q[r], k: K[r], v: V[r], positions, dO: dO[r] })), { B: N, H: 1, n, d }, { causal: true });
      // Per-rank weight gradients [dWq | dWk | dWv | dWo], summed over the CP group by one all-reduce.
      const partial = shards.map((_, r) => {
        const buf = new Float32Array(4 * d * d);
        [g[r].dq!, g[r].dk!, g[r].dv!].forEach((dA, w) => buf.set(mm(ops, X[r], dA, d, N * n, d, { transA: true }), w * d * d));
        buf.set(mm(ops, O[r], dY[r], d, N * n, d, { transA: true }), 3 * d * d);
        return buf;
      });
      self.lastGradAllReduce = ringAllReduce(partial);
      const sum = self.lastGradAllReduce.result[0];
      [Wq, Wk, Wv, Wo].forEach((W, w) => { for (let i = 0; i < d * d; i++) W.grad[i] += sum[w * d * d + i]; });
      const dX = shards.map((_, r) => {
        const out = Float32Array.from(dY[r]);
        [[Wq, g[r].dq!], [Wk, g[r].dk!], [Wv, g[r].dv!]].forEach(([W, dA]) => {
          const back = mm(ops, dA as Float32Array, (W as typeof Wq).data, N * n, d, d, { transB: true });
          for (let i = 0; i < out.length; i++) out[i] += back[i];
        });
        return out;
      });
      return { data: gatherSequence(dX, dims, shards), rows: N, cols: ctx * d };
    },
  };
  return self;
}
