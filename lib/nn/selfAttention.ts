/**
 * A tiny causal self-attention block over the C positions of each context
 * window: y = x + softmax(mask(Q Kᵀ/√d)) V Wo, one head, on the embeddings.
 */
import { createParam } from "./param.js";
import type { Rng } from "../random.js";
import { bytesPerElement } from "./precision.js";
import { addInto, roundCompute } from "./ops.js";
import type { Layer } from "./types.js";

/**
 * Single-head causal self-attention with a residual connection, applied to each row's C
 * embeddings of width d (the row is (C·d) wide: position c occupies columns c·d … c·d+d−1).
 *
 * Forward, per row with X (C, d): Q = X Wq, K = X Wk, V = X Wv, S = Q Kᵀ/√d with S[i, j] = −∞ for j > i,
 * P = softmax(S) by rows, O = P V, Y = X + O Wo.
 * Backward: dWo += Oᵀ dY, dO = dY Woᵀ, dV = Pᵀ dO, dP = dO Vᵀ, dS = P ⊙ (dP − rowsum(dP ⊙ P)),
 * dQ = dS K/√d, dK = dSᵀ Q/√d, dW{q,k,v} += Xᵀ d{Q,K,V}, dX = dY + dQ Wqᵀ + dK Wkᵀ + dV Wvᵀ.
 * Projections run through ops.matmul on all N·C positions at once; the C×C scores per row in float64 loops, rounded.
 *
 * @param name prefix of the parameter names ("<name>.Wq", …)
 * @param contextLength C
 * @param embedDim d
 * @param rng seeded generator; every W ~ N(0, 1/d)
 * @returns a Layer mapping (N, C·d) to (N, C·d); it saves X, Q, K, V, P and O
 * @example
 * selfAttention("attn", 8, 8, mulberry32(0)).savedBytes(1, "fp32"); // (5·8·8 + 8·8)·4 = 1536
 * @see Vaswani et al. 2017, Attention Is All You Need, §3.2.1 (scaled dot-product attention)
 */
export function selfAttention(name: string, contextLength: number, embedDim: number, rng: Rng): Layer {
  const C = contextLength, d = embedDim, scale = 1 / Math.sqrt(d);
  const [Wq, Wk, Wv, Wo] = ["Wq", "Wk", "Wv", "Wo"].map((w) => createParam(`${name}.${w}`, [d, d], 1 / Math.sqrt(d), rng));
  const proj = (x: Float32Array, W: Float32Array, rows: number, ops: Parameters<Layer["forward"]>[1], transB = false) =>
    roundCompute(ops.matmul(x, W, { M: rows * C, K: d, N: d, transB }, ops.precision.accumulate), ops); // (N·C, d)
  return {
    name, kind: "self-attention", params: [Wq, Wk, Wv, Wo], inFeatures: C * d, outFeatures: C * d,
    forward(x, ops) {
      const N = x.rows;
      const Q = proj(x.data, Wq.data, N, ops), K = proj(x.data, Wk.data, N, ops), V = proj(x.data, Wv.data, N, ops);
      const P = new Float32Array(N * C * C), O = new Float32Array(N * C * d);
      for (let n = 0; n < N; n++) {
        for (let i = 0; i < C; i++) {
          const row = new Float64Array(i + 1); // causal: keys 0..i
          let max = -Infinity, z = 0;
          for (let j = 0; j <= i; j++) {
            let s = 0;
            for (let t = 0; t < d; t++) s += Q[(n * C + i) * d + t] * K[(n * C + j) * d + t];
            row[j] = s * scale; max = Math.max(max, row[j]);
          }
          for (let j = 0; j <= i; j++) { row[j] = Math.exp(row[j] - max); z += row[j]; }
          for (let j = 0; j <= i; j++) P[(n * C + i) * C + j] = row[j] / z; // (N, C, C)
        }
      }
      roundCompute(P, ops);
      for (let n = 0; n < N; n++) for (let i = 0; i < C; i++) for (let t = 0; t < d; t++) {
        let s = 0;
        for (let j = 0; j <= i; j++) s += P[(n * C + i) * C + j] * V[(n * C + j) * d + t];
        O[(n * C + i) * d + t] = s; // (N, C, d)
      }
      roundCompute(O, ops);
      const y = proj(O, Wo.data, N, ops);
      for (let k = 0; k < y.length; k++) y[k] += x.data[k];
      roundCompute(y, ops);
      const bytes = (5 * N * C * d + N * C * C) * bytesPerElement(ops.precision.compute);
      return { y: { data: y, rows: N, cols: C * d }, saved: { x, extra: [Q, K, V, P, O], bytes } };
    },
    backward(saved, dy, ops) {
      const x = saved.x, [Q, K, V, P, O] = saved.extra, N = x.rows, R = N * C, acc = ops.precision.accumulate, fmt = ops.precision.compute;
      addInto(Wo.grad, ops.matmul(O, dy.data, { M: d, K: R, N: d, transA: true }, acc), ops); // Oᵀ dY: (d, d)
      const dO = proj(dy.data, Wo.data, N, ops, true); // dY Woᵀ: (N·C, d)
      const dQ = new Float32Array(R * d), dK = new Float32Array(R * d), dV = new Float32Array(R * d);
      for (let n = 0; n < N; n++) {
        for (let i = 0; i < C; i++) {
          const dP = new Float64Array(i + 1);
          let dot = 0;
          for (let j = 0; j <= i; j++) {
            let s = 0;
            for (let t = 0; t < d; t++) s += dO[(n * C + i) * d + t] * V[(n * C + j) * d + t];
            dP[j] = s; dot += s * P[(n * C + i) * C + j];
          }
          for (let j = 0; j <= i; j++) {
            const p = P[(n * C + i) * C + j], dS = p * (dP[j] - dot) * scale; // through softmax and the 1/√d
            for (let t = 0; t < d; t++) {
              dV[(n * C + j) * d + t] += p * dO[(n * C + i) * d + t];
              dQ[(n * C + i) * d + t] += dS * K[(n * C + j) * d + t];
              dK[(n * C + j) * d + t] += dS * Q[(n * C + i) * d + t];
            }
          }
        }
      }
      for (const a of [dQ, dK, dV]) roundCompute(a, ops);
      const dx = Float32Array.from(dy.data);
      for (const [W, dA] of [[Wq, dQ], [Wk, dK], [Wv, dV]] as const) {
        addInto(W.grad, ops.matmul(x.data, dA, { M: d, K: R, N: d, transA: true }, acc), ops); // Xᵀ dA: (d, d)
        const back = ops.matmul(dA, W.data, { M: R, K: d, N: d, transB: true }, acc); // dA Wᵀ: (N·C, d)
        for (let k = 0; k < dx.length; k++) dx[k] += back[k];
      }
      return { data: roundCompute(dx, ops), rows: N, cols: C * d };
    },
    flops: (rows) => 4 * 2 * rows * C * d * d + 2 * 2 * rows * C * C * d + 3 * rows * C * C,
    savedBytes: (rows, format) => (5 * rows * C * d + rows * C * C) * bytesPerElement(format),
  };
}
