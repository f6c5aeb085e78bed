/**
 * Causal multi-head self-attention with grouped-query attention, unsharded: the
 * reference the tensor-parallel layer (tensorParallelAttention.ts) is checked against.
 */
import { matmul } from "../nn/index.js";

/**
 * One causal row of attention before normalisation: for query row `i`, p[j] =
 * exp(q·k_j·scale − max) for j ≤ i (keys at kBase + j·kStride), and their sum.
 * Shared by the forward and the backward so both compute the same numbers in the same order.
 */
function causalScores(Q: ArrayLike<number>, K: ArrayLike<number>, p: Float64Array, qi: number, kBase: number, kStride: number, i: number, d: number, scale: number): number {
  let max = -Infinity;
  for (let j = 0; j <= i; j++) {
    const kj = kBase + j * kStride;
    let dot = 0;
    for (let t = 0; t < d; t++) dot += Q[qi + t] * K[kj + t];
    p[j] = dot * scale;
    if (p[j] > max) max = p[j];
  }
  let sum = 0;
  for (let j = 0; j <= i; j++) { p[j] = Math.exp(p[j] - max); sum += p[j]; }
  return sum;
}

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

/** Checks the shape fields (integers >= 1, G dividing a). */
export function checkShape(s: AttentionShape): void {
  for (const k of ["batch", "seqLen", "hiddenSize", "numHeads", "numKvHeads", "headDim"] as const) {
    if (!Number.isInteger(s[k]) || s[k] < 1) throw new RangeError(`${k} must be an integer >= 1, got ${s[k]}`);
  }
  if (s.numHeads % s.numKvHeads !== 0) throw new RangeError(`numKvHeads (${s.numKvHeads}) must divide numHeads (${s.numHeads})`);
}

/** Columns [c0, c1) of a (rows, cols) matrix, as a new (rows, c1 − c0) matrix. */
export function columns(m: Float32Array, rows: number, cols: number, c0: number, c1: number): Float32Array {
  const w = c1 - c0, out = new Float32Array(rows * w);
  for (let i = 0; i < rows; i++) out.set(m.subarray(i * cols + c0, i * cols + c1), i * w);
  return out;
}

/**
 * Causal attention of the query heads [h0, h1) given Q (N, nq·d), K and V (N, nkv·d) holding KV groups [g0, …):
 * returns the heads' outputs side by side (N, nq·d). Softmax in float64, outputs rounded to float32.
 */
export function attendHeads(s: AttentionShape, Q: Float32Array, K: Float32Array, V: Float32Array, h0: number, h1: number, g0: number): Float32Array {
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
      const sum = causalScores(Q, K, p, qi, (b * S) * nkv * d + g * d, nkv * d, i, d, scale);
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
 * Gradients of the causal attention core of query heads [h0, h1): given Q, K, V as
 * in attendHeads and dO (N, nq·d), returns dQ (N, nq·d), dK and dV (N, nkv·d).
 * Softmax backward dS_j = P_j·(dP_j − Σ_k P_k·dP_k) with dP_j = dO·V_j; sums in float64, results rounded once to float32.
 */
export function attendHeadsBackward(s: AttentionShape, Q: Float32Array, K: Float32Array, V: Float32Array, dO: Float32Array, h0: number, h1: number, g0: number):
  { dQ: Float32Array; dK: Float32Array; dV: Float32Array } {
  const { batch, seqLen: S, headDim: d, numHeads: a, numKvHeads: G } = s;
  const nq = h1 - h0, perGroup = a / G, N = batch * S;
  const nkv = K.length / (N * d);
  const dQ = new Float64Array(N * nq * d), dK = new Float64Array(N * nkv * d), dV = new Float64Array(N * nkv * d);
  const scale = 1 / Math.sqrt(d);
  const p = new Float64Array(S), dp = new Float64Array(S);
  for (let hh = 0; hh < nq; hh++) {
    const g = Math.floor((h0 + hh) / perGroup) - g0;
    for (let b = 0; b < batch; b++) for (let i = 0; i < S; i++) {
      const qi = (b * S + i) * nq * d + hh * d;
      const sum = causalScores(Q, K, p, qi, (b * S) * nkv * d + g * d, nkv * d, i, d, scale);
      let pdp = 0;
      for (let j = 0; j <= i; j++) {
        p[j] /= sum;
        const vj = (b * S + j) * nkv * d + g * d;
        let dot = 0;
        for (let t = 0; t < d; t++) { dot += dO[qi + t] * V[vj + t]; dV[vj + t] += p[j] * dO[qi + t]; }
        dp[j] = dot;
        pdp += p[j] * dot;
      }
      for (let j = 0; j <= i; j++) {
        const ds = p[j] * (dp[j] - pdp) * scale, kj = (b * S + j) * nkv * d + g * d;
        for (let t = 0; t < d; t++) { dQ[qi + t] += ds * K[kj + t]; dK[kj + t] += ds * Q[qi + t]; }
      }
    }
  }
  return { dQ: Float32Array.from(dQ), dK: Float32Array.from(dK), dV: Float32Array.from(dV) };
}

/**
 * Gradients of an attention layer (full or one rank's shard): dWq, dWk, dWv, dWo and dx.
 * @see {@link attentionBackward}
 */
export interface AttentionGrads {
  /** (h, a·d) */
  dWq: Float32Array;
  /** (h, G·d) */
  dWk: Float32Array;
  /** (h, G·d) */
  dWv: Float32Array;
  /** (a·d, h) */
  dWo: Float32Array;
  /** (N, h): dL/dx */
  dx: Float32Array;
}

/** The backward of the heads [h0, h1) and KV groups [g0, g1) from x and the heads' output gradient dO. */
function shardBackward(x: Float32Array, w: AttentionWeights, s: AttentionShape, dO: Float32Array, h0: number, h1: number, g0: number, g1: number):
  { dWq: Float32Array; dWk: Float32Array; dWv: Float32Array; dxPartial: Float32Array } {
  const N = s.batch * s.seqLen, h = s.hiddenSize, d = s.headDim, a = s.numHeads, G = s.numKvHeads;
  const nq = h1 - h0, nkv = g1 - g0;
  const Wq = columns(w.Wq, h, a * d, h0 * d, h1 * d), Wk = columns(w.Wk, h, G * d, g0 * d, g1 * d), Wv = columns(w.Wv, h, G * d, g0 * d, g1 * d);
  const Q = matmul(x, Wq, { M: N, K: h, N: nq * d }), K = matmul(x, Wk, { M: N, K: h, N: nkv * d }), V = matmul(x, Wv, { M: N, K: h, N: nkv * d });
  const { dQ, dK, dV } = attendHeadsBackward(s, Q, K, V, dO, h0, h1, g0);
  const dWq = matmul(x, dQ, { M: h, K: N, N: nq * d, transA: true });
  const dWk = matmul(x, dK, { M: h, K: N, N: nkv * d, transA: true });
  const dWv = matmul(x, dV, { M: h, K: N, N: nkv * d, transA: true });
  const a1 = matmul(dQ, Wq, { M: N, K: nq * d, N: h, transB: true });
  const a2 = matmul(dK, Wk, { M: N, K: nkv * d, N: h, transB: true });
  const a3 = matmul(dV, Wv, { M: N, K: nkv * d, N: h, transB: true });
  const dxPartial = new Float32Array(N * h);
  for (let i = 0; i < dxPartial.length; i++) dxPartial[i] = Math.fround(Math.fround(a1[i] + a2[i]) + a3[i]);
  return { dWq, dWk, dWv, dxPartial };
}

/**
 * Backward of {@link attentionForward}, the unsharded reference: given x and
 * dL/dy, the gradients of the four weights and of x (Q, K, V and the head
 * outputs are recomputed from x). Softmax backward dS = P ⊙ (dP − rowsum(P ⊙ dP)),
 * dP = dO·Vᵀ, then dQ = dS·K/√d, dK = dSᵀ·Q/√d, dV = Pᵀ·dO; a KV group's dK, dV
 * sum over the a/G query heads that share it.
 * @param x (N, h)
 * @param dy (N, h), dL/dy
 * @returns new arrays, see {@link AttentionGrads}
 * @throws RangeError `dy must have batch·seqLen·hiddenSize = 24 elements, got 23`, and those of {@link attentionForward}
 * @example attentionBackward(x, w, { batch: 1, seqLen: 1, hiddenSize: 2, numHeads: 1, numKvHeads: 1, headDim: 2 }, dy).dWq // zeros: one token's softmax is constant 1
 * @see Vaswani et al. 2017 §3.2; Ainslie et al. 2023 (GQA)
 */
export function attentionBackward(x: Float32Array, w: AttentionWeights, s: AttentionShape, dy: Float32Array): AttentionGrads {
  checkShape(s);
  const N = s.batch * s.seqLen, h = s.hiddenSize, d = s.headDim, a = s.numHeads;
  if (x.length !== N * h) throw new RangeError(`x must have batch·seqLen·hiddenSize = ${N * h} elements, got ${x.length}`);
  if (dy.length !== N * h) throw new RangeError(`dy must have batch·seqLen·hiddenSize = ${N * h} elements, got ${dy.length}`);
  const Q = matmul(x, w.Wq, { M: N, K: h, N: a * d });
  const K = matmul(x, w.Wk, { M: N, K: h, N: s.numKvHeads * d });
  const V = matmul(x, w.Wv, { M: N, K: h, N: s.numKvHeads * d });
  const heads = attendHeads(s, Q, K, V, 0, a, 0);
  const dWo = matmul(heads, dy, { M: a * d, K: N, N: h, transA: true });
  const dO = matmul(dy, w.Wo, { M: N, K: h, N: a * d, transB: true });
  const r = shardBackward(x, w, s, dO, 0, a, 0, s.numKvHeads);
  return { dWq: r.dWq, dWk: r.dWk, dWv: r.dWv, dWo, dx: r.dxPartial };
}
