import { matmul } from "../nn/index.js";
import type { TpComm } from "./comm.js";
import { fForward } from "./mappings.js";
import { RowParallelLinear } from "./RowParallelLinear.js";
import { checkTensorParallelSize } from "./config.js";

/**
 * Shapes of a causal multi-head self-attention with grouped-query attention.
 * @see Ainslie et al. 2023, *GQA* (G key/value heads shared by groups of a/G query heads)
 */
export interface AttentionShape {
  /** Sequences in the batch. */
  batch: number;
  /** Tokens per sequence; rows N = batch·seqLen. */
  seqLen: number;
  /** h, model width. */
  hiddenSize: number;
  /** a, query heads. */
  numHeads: number;
  /** G, key/value heads, dividing a (G = a: plain multi-head attention). */
  numKvHeads: number;
  /** d, width of one head. */
  headDim: number;
}

/**
 * Attention weights, row-major, heads laid out head-major along the columns (column = head·d + j).
 * @see {@link attentionForward}
 */
export interface AttentionWeights {
  /** (h, a·d) */
  Wq: Float32Array;
  /** (h, G·d) */
  Wk: Float32Array;
  /** (h, G·d) */
  Wv: Float32Array;
  /** (a·d, h) */
  Wo: Float32Array;
}

function checkShape(s: AttentionShape): void {
  for (const k of ["batch", "seqLen", "hiddenSize", "numHeads", "numKvHeads", "headDim"] as const) {
    if (!Number.isInteger(s[k]) || s[k] < 1) throw new RangeError(`${k} must be an integer >= 1, got ${s[k]}`);
  }
  if (s.numHeads % s.numKvHeads !== 0) throw new RangeError(`numKvHeads (${s.numKvHeads}) must divide numHeads (${s.numHeads})`);
}

/** Columns [c0, c1) of a (rows, cols) matrix. */
function columns(m: Float32Array, rows: number, cols: number, c0: number, c1: number): Float32Array {
  const w = c1 - c0, out = new Float32Array(rows * w);
  for (let i = 0; i < rows; i++) out.set(m.subarray(i * cols + c0, i * cols + c1), i * w);
  return out;
}

/**
 * Causal attention of the query heads [h0, h1) given Q (N, nq·d), K and V (N, nkv·d) holding KV groups [g0, …):
 * returns the heads' outputs side by side (N, nq·d). Softmax in float64, outputs rounded to float32.
 */
function attendHeads(s: AttentionShape, Q: Float32Array, K: Float32Array, V: Float32Array, h0: number, h1: number, g0: number): Float32Array {
  const { batch, seqLen: S, headDim: d, numHeads: a, numKvHeads: G } = s;
  const nq = h1 - h0, perGroup = a / G, N = batch * S;
  const nkv = K.length / (N * d);
  const out = new Float32Array(N * nq * d);
  const scale = 1 / Math.sqrt(d);
  const p = new Float64Array(S);
  for (let hh = 0; hh < nq; hh++) {
    const g = Math.floor((h0 + hh) / perGroup) - g0; // this rank's local KV group
    for (let b = 0; b < batch; b++) for (let i = 0; i < S; i++) {
      const qi = (b * S + i) * nq * d + hh * d;
      let max = -Infinity;
      for (let j = 0; j <= i; j++) {
        const kj = (b * S + j) * nkv * d + g * d;
        let dot = 0;
        for (let t = 0; t < d; t++) dot += Q[qi + t] * K[kj + t];
        p[j] = dot * scale;
        if (p[j] > max) max = p[j];
      }
      let sum = 0;
      for (let j = 0; j <= i; j++) { p[j] = Math.exp(p[j] - max); sum += p[j]; }
      for (let t = 0; t < d; t++) {
        let acc = 0;
        for (let j = 0; j <= i; j++) acc += p[j] * V[(b * S + j) * nkv * d + g * d + t];
        out[qi + t] = acc / sum;
      }
    }
  }
  return out;
}

/**
 * Unsharded causal self-attention with grouped-query attention, the reference
 * for {@link tensorParallelAttentionForward}: Q = xWq, K = xWk, V = xWv, query
 * head i attends with KV group ⌊i/(a/G)⌋, y = concat(heads)·Wo (no biases).
 * @param x (batch·seqLen, h) row-major
 * @returns y (batch·seqLen, h)
 * @throws RangeError `numKvHeads (3) must divide numHeads (8)`; `x must have batch·seqLen·hiddenSize = 24 elements, got 23`
 * @example attentionForward(x, w, { batch: 1, seqLen: 1, hiddenSize: 2, numHeads: 1, numKvHeads: 1, headDim: 2 }) // x·Wv·Wo (one token attends to itself)
 * @see Vaswani et al. 2017 §3.2; Ainslie et al. 2023 (GQA)
 */
export function attentionForward(x: Float32Array, w: AttentionWeights, s: AttentionShape): Float32Array {
  checkShape(s);
  const N = s.batch * s.seqLen, h = s.hiddenSize, d = s.headDim;
  if (x.length !== N * h) throw new RangeError(`x must have batch·seqLen·hiddenSize = ${N * h} elements, got ${x.length}`);
  const Q = matmul(x, w.Wq, { M: N, K: h, N: s.numHeads * d });
  const K = matmul(x, w.Wk, { M: N, K: h, N: s.numKvHeads * d });
  const V = matmul(x, w.Wv, { M: N, K: h, N: s.numKvHeads * d });
  const heads = attendHeads(s, Q, K, V, 0, s.numHeads, 0);
  return matmul(heads, w.Wo, { M: N, K: s.numHeads * d, N: h });
}

/**
 * Self-attention split by heads on T ranks (Shoeybi et al. 2019, §3, Figure 3b):
 * rank r holds the Q columns of query heads r·a/T … (r+1)·a/T − 1 and the K, V
 * columns of the KV groups those heads use (column-parallel, after f), computes
 * its heads' attention with no communication, and multiplies by its rows of Wo
 * (row-parallel), whose partial outputs g all-reduces. When G < T (Megatron
 * allows T a multiple of G), each KV group is replicated on T/G ranks.
 * Forward only: the backward's communication is that of the MLP (one all-reduce, f).
 * Equal to {@link attentionForward} within (a·d + T)·2⁻²³·Σ|heads·Wo| per element (the row-parallel sum).
 * @param comm the group (its log gets one all-reduce, op "g")
 * @param x (N, h), replicated
 * @returns per rank: y (N, h)
 * @throws RangeError `numHeads (6) must be divisible by T (4)`; `numKvHeads (8) must be a multiple or a divisor of T (3)`
 * @example tensorParallelAttentionForward(new TpComm(2), x, w, shape)[0] // ≈ attentionForward(x, w, shape)
 * @see Shoeybi et al. 2019, *Megatron-LM*, §3; Megatron-LM megatron/core/transformer/attention.py (num_query_groups_per_partition)
 */
export function tensorParallelAttentionForward(comm: TpComm, x: Float32Array, w: AttentionWeights, s: AttentionShape): Float32Array[] {
  checkShape(s);
  const T = comm.T, N = s.batch * s.seqLen, h = s.hiddenSize, d = s.headDim, a = s.numHeads, G = s.numKvHeads;
  checkTensorParallelSize({ numHeads: a, numKvHeads: G, hiddenSize: a * d, ffnHiddenSize: T }, T);
  if (x.length !== N * h) throw new RangeError(`x must have batch·seqLen·hiddenSize = ${N * h} elements, got ${x.length}`);
  const xs = fForward(Array.from({ length: T }, () => x));
  const perRank = a / T, perGroup = a / G;
  const heads = xs.map((xr, r) => {
    const h0 = r * perRank, h1 = h0 + perRank;
    const g0 = Math.floor(h0 / perGroup), g1 = Math.floor((h1 - 1) / perGroup) + 1;
    const Q = matmul(xr, columns(w.Wq, h, a * d, h0 * d, h1 * d), { M: N, K: h, N: perRank * d });
    const K = matmul(xr, columns(w.Wk, h, G * d, g0 * d, g1 * d), { M: N, K: h, N: (g1 - g0) * d });
    const V = matmul(xr, columns(w.Wv, h, G * d, g0 * d, g1 * d), { M: N, K: h, N: (g1 - g0) * d });
    return attendHeads(s, Q, K, V, h0, h1, g0);
  });
  const out = new RowParallelLinear(comm, w.Wo, null, a * d, h);
  return out.forward(heads, N);
}
