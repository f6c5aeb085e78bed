/**
 * Self-attention split by heads on T ranks, as Megatron-LM runs it, including grouped-query
 * attention with more ranks than KV heads (T > G).
 */
import { matmul } from "../nn/index.js";
import { attendHeads, attendHeadsBackward, checkShape, columns, type AttentionShape, type AttentionWeights } from "./attention.js";
import type { TpComm } from "./comm.js";
import { TpComm as TpCommClass } from "./comm.js";
import { checkTensorParallelSize } from "./config.js";
import { fusedQkvWidth, fuseQkv, joinQkvGroups, splitQkvGroups } from "./fusedQkv.js";
import { fBackward, fForward } from "./mappings.js";
import { RowParallelLinear } from "./RowParallelLinear.js";
import { concatColumns, splitColumns } from "./shard.js";

/**
 * One rank's share of the attention weight gradients.
 * @see {@link tensorParallelAttentionBackward}
 */
export interface TpAttentionGrads {
  /** (h, (a + 2G)·d/T): rank r's column block of the fused QKV weight's gradient ({@link unfuseQkv} of the T blocks side by side gives dWq, dWk, dWv). */
  dWqkv: Float32Array;
  /** (a/T·d, h): rank r's rows of dWo. */
  dWo: Float32Array;
  /** (N, h): dL/dx, after f's all-reduce, on every rank. */
  dx: Float32Array;
}

/** What one rank computes before the output projection: Q of its heads, K and V of their groups. */
interface RankQkv { Q: Float32Array; K: Float32Array; V: Float32Array; h0: number; h1: number; g0: number; g1: number }

function setUp(comm: TpComm, x: Float32Array, w: AttentionWeights, s: AttentionShape) {
  checkShape(s);
  const T = comm.T, N = s.batch * s.seqLen, h = s.hiddenSize;
  checkTensorParallelSize({ numHeads: s.numHeads, numKvHeads: s.numKvHeads, hiddenSize: h, headDim: s.headDim, ffnHiddenSize: T }, T);
  if (x.length !== N * h) throw new RangeError(`x must have batch·seqLen·hiddenSize = ${N * h} elements, got ${x.length}`);
  const width = fusedQkvWidth(s);
  const Wqkv = splitColumns(fuseQkv(w, s), h, width, T); // rank r: columns r·width/T … (r+1)·width/T
  return { T, N, h, width, Wqkv };
}

/**
 * Forward up to the core attention: column-parallel fused QKV (after f), then, when G < T,
 * the all-gather of the QKV activation and each rank's slice of its group.
 */
function qkvForward(comm: TpComm, x: Float32Array, s: AttentionShape, Wqkv: Float32Array[], N: number, width: number): RankQkv[] {
  const T = comm.T, d = s.headDim, a = s.numHeads, G = s.numKvHeads, perGroup = a / G, perRank = a / T;
  const xs = fForward(Array.from({ length: T }, () => x));
  const mixed = xs.map((xr, r) => matmul(xr, Wqkv[r], { M: N, K: s.hiddenSize, N: width / T })); // (N, width/T) per rank
  if (G >= T) {
    // Rank r's columns are G/T whole groups: [q heads | k | v] of groups r·G/T … (r+1)·G/T − 1.
    return mixed.map((m, r) => ({ ...splitQkvGroups(m, N, G / T, perGroup, d), h0: r * perRank, h1: (r + 1) * perRank, g0: (r * G) / T, g1: ((r + 1) * G) / T }));
  }
  // G < T: a group's columns straddle T/G ranks. All-gather the activation along its last dimension,
  // keep group ⌊r/(T/G)⌋, then the query heads this rank owns inside it (attention.py, steps 1–4).
  const gathered = comm.allGather(mixed, "forward", "qkv-gather").map((flat) => concatColumns(splitFlat(flat, T), N)); // (N, width)
  const share = T / G, gw = width / G;
  return gathered.map((full, r) => {
    const g = Math.floor(r / share), j = r % share;
    const grp = splitQkvGroups(columns(full, N, width, g * gw, (g + 1) * gw), N, 1, perGroup, d);
    return { Q: columns(grp.Q, N, perGroup * d, j * perRank * d, (j + 1) * perRank * d), K: grp.K, V: grp.V, h0: r * perRank, h1: (r + 1) * perRank, g0: g, g1: g + 1 };
  });
}

/** T equal consecutive pieces of a flat buffer (the rank-major result of an all-gather). */
function splitFlat(flat: Float32Array, T: number): Float32Array[] {
  const n = flat.length / T;
  return Array.from({ length: T }, (_, r) => flat.subarray(r * n, (r + 1) * n));
}

/**
 * Self-attention split by heads on T ranks, as Megatron-LM runs it (Shoeybi et al. 2019, §3,
 * Figure 3b). After f, the fused QKV projection (Megatron's layout, {@link fuseQkv}) is
 * column-parallel: rank r holds its 1/T block of the (h, (a + 2G)·d) weight. When G ≥ T that
 * block is G/T whole KV groups and rank r computes its a/T heads' attention with no
 * communication. When G < T (grouped-query attention with more ranks than KV heads, allowed
 * since Megatron commit f7dfb99) the block cuts a group apart, so the ranks all-gather the QKV
 * activation (N, (a + 2G)·d) (op "qkv-gather"), and rank r keeps group ⌊r·G/T⌋'s key and value
 * heads and its own a/T query heads. The weights are never replicated. The output projection
 * is row-parallel and ends with g. Equal to the unsharded layer within (a·d + T)·2⁻²³·Σ|heads·Wo|
 * per element (the row-parallel sum).
 * @param comm the group (its log gets, when G < T, one all-gather "qkv-gather", then one all-reduce "g")
 * @param x (N, h), replicated
 * @param w the full weights (each rank takes its blocks)
 * @param s the shape
 * @returns per rank: y (N, h)
 * @throws RangeError from {@link checkTensorParallelSize}: `numHeads (6) must be divisible by T (4); …`, `numKvHeads (8) must be a multiple or a divisor of T (3) …`
 * @example tensorParallelAttentionForward(new TpComm(8), x, w, { …, numHeads: 8, numKvHeads: 2 })[0] // ≈ attentionForward(x, w, shape), after one all-gather and one all-reduce
 * @see Shoeybi et al. 2019, *Megatron-LM*, §3; Megatron-LM megatron/core/transformer/attention.py (`num_query_groups < world_size`, `all_gather_last_dim_from_tensor_parallel_region`) at d98e8a6, introduced in f7dfb99 (PR #2565)
 */
export function tensorParallelAttentionForward(comm: TpComm, x: Float32Array, w: AttentionWeights, s: AttentionShape): Float32Array[] {
  const { N, h, width, Wqkv } = setUp(comm, x, w, s);
  const heads = qkvForward(comm, x, s, Wqkv, N, width).map((q) => attendHeads(s, q.Q, q.K, q.V, q.h0, q.h1, q.g0));
  return new RowParallelLinear(comm, w.Wo, null, s.numHeads * s.headDim, h).forward(heads, N);
}

/**
 * Backward of {@link tensorParallelAttentionForward} on T ranks. g's backward is the identity;
 * the row-parallel Wo gives rank r its rows of dWo and its heads' output gradient with no
 * communication; each rank runs the attention backward of its own heads. When G ≥ T that gives
 * rank r the gradient of its own fused QKV columns. When G < T each rank holds only its query
 * heads' share of its group's dK and dV: the backward of the forward all-gather is a
 * reduce-scatter of the (N, (a + 2G)·d) activation gradient (op "qkv-gather"), which sums
 * those shares and leaves each rank its own columns. Then dWqkv_r = xᵀ·dQKV_r, and f's backward
 * all-reduces the T partial input gradients dQKV_r·Wqkv_rᵀ (op "f"). No weight gradient is
 * communicated.
 *
 * Numerics (float32): dWo is the unsharded gradient's block bit for bit, and so is dWqkv when
 * G ≥ T (the same dot products in the same order); with G < T the key and value columns are
 * sums of T/G partial products re-associated by the ring, and dx of T partials: they differ from
 * {@link attentionBackward} by a few float32 roundings (the tests check |Δ| ≤ 2⁻¹⁸·(1 + max|grad|)).
 * @param comm the group (its log gets, when G < T, one reduce-scatter "qkv-gather", then one all-reduce "f")
 * @param x (N, h), replicated
 * @param w the full weights
 * @param s the shape
 * @param dy (N, h), dL/dy, replicated
 * @returns per rank: see {@link TpAttentionGrads}
 * @throws RangeError as {@link tensorParallelAttentionForward}; `dy must have batch·seqLen·hiddenSize = 24 elements, got 23`
 * @example unfuseQkv(concatColumns(tensorParallelAttentionBackward(new TpComm(8), x, w, s, dy).map((g) => g.dWqkv), h), s).dWk // ≈ attentionBackward(x, w, s, dy).dWk
 * @see Megatron-LM megatron/core/tensor_parallel/mappings.py `_AllGatherFromTensorParallelRegion.backward` (reduce-scatter) and attention.py at d98e8a6
 */
export function tensorParallelAttentionBackward(comm: TpComm, x: Float32Array, w: AttentionWeights, s: AttentionShape, dy: Float32Array): TpAttentionGrads[] {
  const { T, N, h, width, Wqkv } = setUp(comm, x, w, s);
  if (dy.length !== N * h) throw new RangeError(`dy must have batch·seqLen·hiddenSize = ${N * h} elements, got ${dy.length}`);
  const d = s.headDim, G = s.numKvHeads, perGroup = s.numHeads / G;
  // Forward again (what the layer would have kept), on a side group so that its collectives stay out of the backward's log.
  const side = new TpCommClass(T, comm.cost, comm.bytesPerElement);
  const qkv = qkvForward(side, x, s, Wqkv, N, width);
  const heads = qkv.map((q) => attendHeads(s, q.Q, q.K, q.V, q.h0, q.h1, q.g0));
  const out = new RowParallelLinear(side, w.Wo, null, s.numHeads * d, h);
  out.forward(heads, N);
  const dOs = out.backward(Array.from({ length: T }, () => dy)); // g backward: identity
  const grads = qkv.map((q, r) => attendHeadsBackward(s, q.Q, q.K, q.V, dOs[r], q.h0, q.h1, q.g0));
  let dQkv: Float32Array[];
  if (G >= T) {
    dQkv = grads.map((g) => joinQkvGroups(g.dQ, g.dK, g.dV, N, G / T, perGroup, d));
  } else {
    // Each rank's gradient of the gathered activation is zero outside its group's slice and its own query heads.
    const share = T / G, gw = width / G, perRank = s.numHeads / T;
    const full = grads.map((g, r) => {
      const grp = Math.floor(r / share), j = r % share;
      const dQ = new Float32Array(N * perGroup * d);
      for (let i = 0; i < N; i++) dQ.set(g.dQ.subarray(i * perRank * d, (i + 1) * perRank * d), i * perGroup * d + j * perRank * d);
      const slice = joinQkvGroups(dQ, g.dK, g.dV, N, 1, perGroup, d), buf = new Float32Array(N * width);
      for (let i = 0; i < N; i++) buf.set(slice.subarray(i * gw, (i + 1) * gw), i * width + grp * gw);
      const parts = splitColumns(buf, N, width, T), flat = new Float32Array(N * width);
      parts.forEach((p, k) => flat.set(p, k * p.length)); // rank-major, as _reduce_scatter_along_last_dim lays it out
      return flat;
    });
    dQkv = comm.reduceScatter(full, "backward", "qkv-gather");
  }
  const dxPartial = dQkv.map((g, r) => matmul(g, Wqkv[r], { M: N, K: width / T, N: h, transB: true }));
  const dxs = fBackward(comm, dxPartial);
  return dQkv.map((g, r) => ({ dWqkv: matmul(x, g, { M: h, K: N, N: width / T, transA: true }), dWo: out.weightGrads[r].slice(), dx: dxs[r] }));
}
