/**
 * Megatron-LM's fused QKV weight: one (h, (a + 2G)·d) matrix whose columns are
 * grouped by KV group, "q1 q2 k1 v1 | q3 q4 k2 v2 | …": the a/G query heads of
 * group g, then its key head, then its value head. Column-parallel splits this
 * matrix into T equal column blocks, whatever G is.
 * @see Megatron-LM megatron/core/transformer/attention.py `SelfAttention.get_query_key_value_tensors` (the layout comment) at d98e8a6
 */
import type { AttentionShape, AttentionWeights } from "./attention.js";

/** (a + 2G)·d, the width of the fused QKV projection. */
export function fusedQkvWidth(s: Pick<AttentionShape, "numHeads" | "numKvHeads" | "headDim">): number {
  return (s.numHeads + 2 * s.numKvHeads) * s.headDim;
}

function checkFuseShape(s: AttentionShape): { h: number; d: number; perGroup: number; G: number; width: number } {
  for (const k of ["hiddenSize", "numHeads", "numKvHeads", "headDim"] as const) {
    if (!Number.isInteger(s[k]) || s[k] < 1) throw new RangeError(`${k} must be an integer >= 1, got ${s[k]}`);
  }
  if (s.numHeads % s.numKvHeads !== 0) throw new RangeError(`numKvHeads (${s.numKvHeads}) must divide numHeads (${s.numHeads})`);
  return { h: s.hiddenSize, d: s.headDim, perGroup: s.numHeads / s.numKvHeads, G: s.numKvHeads, width: fusedQkvWidth(s) };
}

/**
 * Splits the columns of (rows, n·(perGroup + 2)·d) fused QKV values, n groups side by side,
 * into Q (rows, n·perGroup·d), K and V (rows, n·d), each in head-major order.
 * @param m (rows, n·(perGroup + 2)·d) row-major
 * @returns new Q, K, V
 * @example splitQkvGroups(new Float32Array([1, 2, 3]), 1, 1, 1, 1) // { Q: [1], K: [2], V: [3] }
 * @see Megatron-LM attention.py `get_query_key_value_tensors` (split_arg_list)
 */
export function splitQkvGroups(m: Float32Array, rows: number, groups: number, perGroup: number, d: number): { Q: Float32Array; K: Float32Array; V: Float32Array } {
  const gw = (perGroup + 2) * d, qw = perGroup * d, cols = groups * gw;
  if (m.length !== rows * cols) throw new RangeError(`m must have rows·groups·(perGroup + 2)·d = ${rows * cols} elements, got ${m.length}`);
  const Q = new Float32Array(rows * groups * qw), K = new Float32Array(rows * groups * d), V = new Float32Array(rows * groups * d);
  for (let i = 0; i < rows; i++) for (let g = 0; g < groups; g++) {
    const src = i * cols + g * gw; // row i, group g: [q heads | k | v]
    Q.set(m.subarray(src, src + qw), (i * groups + g) * qw);
    K.set(m.subarray(src + qw, src + qw + d), (i * groups + g) * d);
    V.set(m.subarray(src + qw + d, src + gw), (i * groups + g) * d);
  }
  return { Q, K, V };
}

/**
 * Inverse of {@link splitQkvGroups}: interleaves Q, K, V back into the fused group layout.
 * @returns a new (rows, n·(perGroup + 2)·d) matrix
 * @example joinQkvGroups(new Float32Array([1]), new Float32Array([2]), new Float32Array([3]), 1, 1, 1, 1) // [1, 2, 3]
 * @see {@link splitQkvGroups}
 */
export function joinQkvGroups(Q: Float32Array, K: Float32Array, V: Float32Array, rows: number, groups: number, perGroup: number, d: number): Float32Array {
  const gw = (perGroup + 2) * d, qw = perGroup * d, cols = groups * gw;
  if (Q.length !== rows * groups * qw || K.length !== rows * groups * d || V.length !== rows * groups * d) {
    throw new RangeError(`Q, K, V must have ${rows * groups * qw}, ${rows * groups * d}, ${rows * groups * d} elements, got ${Q.length}, ${K.length}, ${V.length}`);
  }
  const out = new Float32Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let g = 0; g < groups; g++) {
    const dst = i * cols + g * gw;
    out.set(Q.subarray((i * groups + g) * qw, (i * groups + g + 1) * qw), dst);
    out.set(K.subarray((i * groups + g) * d, (i * groups + g + 1) * d), dst + qw);
    out.set(V.subarray((i * groups + g) * d, (i * groups + g + 1) * d), dst + qw + d);
  }
  return out;
}

/**
 * Megatron's fused QKV weight from separate Wq (h, a·d), Wk and Wv (h, G·d):
 * group g's columns are its a/G query heads, then its key head, then its value head.
 * @param w the attention weights (Wo is not used)
 * @param s the shape (hiddenSize, numHeads, numKvHeads, headDim)
 * @returns a new (h, (a + 2G)·d) matrix
 * @throws RangeError `numKvHeads (3) must divide numHeads (8)`; `Wq must have h·a·d = 32 elements, got 31` (same for Wk, Wv)
 * @example fuseQkv({ Wq: [q0, q1], Wk: [k0], Wv: [v0], Wo }, { hiddenSize: 1, numHeads: 2, numKvHeads: 1, headDim: 1, … }) // [q0, q1, k0, v0]
 * @see Megatron-LM attention.py (the "q1 q2 k1 v1 | q3 q4 k2 v2" layout) at d98e8a6
 */
export function fuseQkv(w: Pick<AttentionWeights, "Wq" | "Wk" | "Wv">, s: AttentionShape): Float32Array {
  const { h, d, perGroup, G } = checkFuseShape(s);
  for (const [k, n] of [["Wq", h * s.numHeads * d], ["Wk", h * G * d], ["Wv", h * G * d]] as const) {
    if (w[k].length !== n) throw new RangeError(`${k} must have ${k === "Wq" ? "h·a·d" : "h·G·d"} = ${n} elements, got ${w[k].length}`);
  }
  return joinQkvGroups(w.Wq, w.Wk, w.Wv, h, G, perGroup, d);
}

/**
 * Inverse of {@link fuseQkv}: Wq (h, a·d), Wk and Wv (h, G·d) from the fused (h, (a + 2G)·d) matrix
 * (for example the column blocks of T ranks' weight gradients, put back side by side).
 * @param fused (h, (a + 2G)·d) row-major
 * @returns new Wq, Wk, Wv
 * @throws RangeError `fused must have h·(a + 2G)·d = 48 elements, got 47`
 * @example unfuseQkv(fuseQkv(w, s), s).Wk // equals w.Wk
 * @see {@link fuseQkv}
 */
export function unfuseQkv(fused: Float32Array, s: AttentionShape): { Wq: Float32Array; Wk: Float32Array; Wv: Float32Array } {
  const { h, d, perGroup, G, width } = checkFuseShape(s);
  if (fused.length !== h * width) throw new RangeError(`fused must have h·(a + 2G)·d = ${h * width} elements, got ${fused.length}`);
  const { Q, K, V } = splitQkvGroups(fused, h, G, perGroup, d);
  return { Wq: Q, Wk: K, Wv: V };
}
