/**
 * The router of a mixture-of-experts layer: scores, top-k selection (ties to
 * the lowest expert index) and the gate values each selected expert's output is
 * multiplied by; and the backward of the gates into the router logits.
 */

/**
 * How router logits become gates.
 * - `"softmax-topk"`: softmax over all E experts, then the k largest probabilities are the gates,
 *   not renormalised (Switch Transformer with k = 1, DeepSeek-V2, Qwen1.5/Qwen2-MoE; Megatron `--moe-router-pre-softmax`).
 * - `"topk-softmax"`: the k largest logits, then a softmax over those k only (Mixtral: G(x) = Softmax(TopK(x·W_g));
 *   GShard's normalised top-2; Megatron's default).
 * - `"sigmoid"`: s = σ(logit) per expert, the k largest s + bias are selected, gates are the selected s normalised
 *   to sum 1 when k > 1 (DeepSeek-V3, whose bias is the auxiliary-loss-free balancing term; Megatron `--moe-router-score-function sigmoid`).
 * @see the sources of {@link topKRouting}
 */
export type RoutingOrder = "softmax-topk" | "topk-softmax" | "sigmoid";

/**
 * The routing of N tokens: which k experts each goes to, with which gate, and the scores the balancing losses use.
 * @see the sources of {@link topKRouting}
 */
export interface Routing {
  /** (N, k) expert indices, row t holds token t's experts by decreasing selection score (ties: lower index first). */
  experts: Int32Array;
  /** (N, k) gate of each selected expert. */
  gates: Float32Array;
  /** (N, E) softmax of the logits ("softmax-*"), or the sigmoid scores normalised over all E experts ("sigmoid"): what the load-balancing loss averages. */
  probs: Float32Array;
  /** (N, E) σ(logits) for "sigmoid" (used by the backward), empty otherwise. */
  scores: Float32Array;
  rows: number;
  numExperts: number;
  topK: number;
  order: RoutingOrder;
}

/**
 * The indices of the k largest values of `v`, largest first; equal values go
 * to the lower index first (as jax.lax.top_k and tf.math.top_k document;
 * torch.topk does not guarantee an order for ties).
 * @param v the values (finite)
 * @param k 1 ≤ k ≤ v.length
 * @returns k indices
 * @example topKIndices([1, 3, 3, 2], 2) // [1, 2]
 * @see JAX `jax.lax.top_k` docs ("If two elements are equal, the lower-index element appears first"); PyTorch `torch.topk` docs (ties not guaranteed stable)
 */
export function topKIndices(v: ArrayLike<number>, k: number): number[] {
  const taken = new Uint8Array(v.length), out: number[] = [];
  for (let j = 0; j < k; j++) {
    let best = -1;
    for (let i = 0; i < v.length; i++) if (!taken[i] && (best < 0 || v[i] > v[best])) best = i;
    taken[best] = 1;
    out.push(best);
  }
  return out;
}

/**
 * Routes N tokens to k of E experts from their router logits.
 *
 * softmax-topk: p = softmax(l), S = top-k(p), g_j = p_{S_j}.
 * topk-softmax: S = top-k(l), g = softmax(l_S).
 * sigmoid: s = σ(l), S = top-k(s + bias), g_j = s_{S_j} / Σ_{i∈S} s_i (k > 1; g = s_S when k = 1).
 * Ties in the top-k go to the lower expert index. Softmax and sums run in float64, results are float32.
 *
 * @param logits (N, E) row-major router logits, finite
 * @param rows N (integer ≥ 0)
 * @param numExperts E (integer ≥ 1)
 * @param topK k, 1 ≤ k ≤ E
 * @param order which routing (see {@link RoutingOrder})
 * @param expertBias (E) added to the scores for the selection only ("sigmoid"; DeepSeek-V3's b_i); default none
 * @returns the {@link Routing}: experts and gates (N, k), probs (N, E)
 * @throws {RangeError} `topK must be an integer in [1, numExperts = 4], got 5`; `logits must have rows·numExperts = 8 elements, got 6`;
 *   `logits[3] must be finite, got NaN`; `order must be one of softmax-topk, topk-softmax, sigmoid, got "x"`; `expertBias must have 4 elements, got 3`
 * @example topKRouting(Float32Array.of(2, 1, 0, 0), 1, 4, 2, "topk-softmax").gates // Float32Array [0.7310586, 0.26894143] (softmax of [2, 1])
 * @see Fedus et al. 2021, *Switch Transformers* §2.1 (softmax, top-1); Jiang et al. 2024, *Mixtral of Experts* §2.1 (Softmax(TopK(x·W_g)));
 *   Lepikhin et al. 2020, *GShard* Algorithm 1 (top-2, normalised); DeepSeek-AI 2024, *DeepSeek-V3 Technical Report* §2.1.2 (sigmoid affinities, bias for selection only, Eq. 16);
 *   Megatron-LM `megatron/core/transformer/moe/moe_utils.py` `topk_routing_with_score_function` at d98e8a6
 */
export function topKRouting(logits: Float32Array, rows: number, numExperts: number, topK: number, order: RoutingOrder, expertBias?: ArrayLike<number>): Routing {
  const N = rows, E = numExperts, k = topK;
  if (!Number.isInteger(N) || N < 0) throw new RangeError(`rows must be an integer >= 0, got ${N}`);
  if (!Number.isInteger(E) || E < 1) throw new RangeError(`numExperts must be an integer >= 1, got ${E}`);
  if (!Number.isInteger(k) || k < 1 || k > E) throw new RangeError(`topK must be an integer in [1, numExperts = ${E}], got ${k}`);
  if (order !== "softmax-topk" && order !== "topk-softmax" && order !== "sigmoid") throw new RangeError(`order must be one of softmax-topk, topk-softmax, sigmoid, got ${JSON.stringify(order)}`);
  if (logits.length !== N * E) throw new RangeError(`logits must have rows·numExperts = ${N * E} elements, got ${logits.length}`);
  for (let i = 0; i < logits.length; i++) if (!Number.isFinite(logits[i])) throw new RangeError(`logits[${i}] must be finite, got ${logits[i]}`);
  if (expertBias !== undefined && expertBias.length !== E) throw new RangeError(`expertBias must have ${E} elements, got ${expertBias.length}`);
  const experts = new Int32Array(N * k), gates = new Float32Array(N * k), probs = new Float32Array(N * E);
  const scores = new Float32Array(order === "sigmoid" ? N * E : 0);
  for (let t = 0; t < N; t++) {
    const l = logits.subarray(t * E, (t + 1) * E); // (E)
    let sel: number[];
    if (order === "sigmoid") {
      const s = Float32Array.from(l, (x) => 1 / (1 + Math.exp(-x)));
      scores.set(s, t * E);
      const total = s.reduce((a, b) => a + b, 0);
      for (let i = 0; i < E; i++) probs[t * E + i] = s[i] / total;
      sel = topKIndices(expertBias ? s.map((x, i) => x + expertBias[i]) : s, k);
      const z = k > 1 ? sel.reduce((a, i) => a + s[i], 0) : 1;
      sel.forEach((i, j) => { gates[t * k + j] = s[i] / z; });
    } else {
      const p = softmax64(l);
      for (let i = 0; i < E; i++) probs[t * E + i] = p[i];
      if (order === "softmax-topk") {
        sel = topKIndices(probs.subarray(t * E, (t + 1) * E), k);
        sel.forEach((i, j) => { gates[t * k + j] = p[i]; });
      } else {
        sel = topKIndices(l, k);
        const q = softmax64(sel.map((i) => l[i]));
        sel.forEach((_, j) => { gates[t * k + j] = q[j]; });
      }
    }
    sel.forEach((i, j) => { experts[t * k + j] = i; });
  }
  return { experts, gates, probs, scores, rows: N, numExperts: E, topK: k, order };
}

/** softmax in float64. */
function softmax64(l: ArrayLike<number>): Float64Array {
  let m = -Infinity;
  for (let i = 0; i < l.length; i++) m = Math.max(m, l[i]);
  const e = Float64Array.from(l, (x) => Math.exp(x - m));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / z);
}

/**
 * Backward of the gates into the router logits: ∂L/∂logits from ∂L/∂gates.
 *
 * softmax-topk: with G the E-vector holding dg_j at S_j (0 elsewhere), dl = p ⊙ (G − ⟨G, p⟩).
 * topk-softmax: at the selected logits dl_S = g ⊙ (dg − ⟨dg, g⟩), 0 elsewhere.
 * sigmoid: ds_i = (dg_i − ⟨dg, g⟩)/Σ_S s for i ∈ S (k > 1; ds = dg when k = 1), dl_i = ds_i · s_i(1 − s_i).
 *
 * @param r the routing of the forward
 * @param dGates (N, k) ∂L/∂gates (0 for a slot whose token was dropped)
 * @returns (N, E) ∂L/∂logits, a new array
 * @throws {RangeError} `dGates must have rows·topK = 6 elements, got 4`
 * @example gatesBackward(topKRouting(Float32Array.of(0, 0), 1, 2, 1, "softmax-topk"), Float32Array.of(1)) // Float32Array [0.25, -0.25]
 * @see the chain rule through softmax (∂p_i/∂l_j = p_i(δ_ij − p_j)) and σ' = σ(1 − σ); Megatron-LM moe_utils.py `topk_routing_with_score_function` (the forward it differentiates)
 */
export function gatesBackward(r: Routing, dGates: ArrayLike<number>): Float32Array {
  const { rows: N, numExperts: E, topK: k } = r;
  if (dGates.length !== N * k) throw new RangeError(`dGates must have rows·topK = ${N * k} elements, got ${dGates.length}`);
  const dl = new Float32Array(N * E);
  for (let t = 0; t < N; t++) {
    const sel = Array.from(r.experts.subarray(t * k, (t + 1) * k)), g = r.gates.subarray(t * k, (t + 1) * k);
    const dg = Array.from({ length: k }, (_, j) => dGates[t * k + j]);
    if (r.order === "softmax-topk") {
      const p = r.probs.subarray(t * E, (t + 1) * E);
      let dot = 0;
      sel.forEach((i, j) => { dot += dg[j] * p[i]; });
      for (let i = 0; i < E; i++) dl[t * E + i] = -p[i] * dot;
      sel.forEach((i, j) => { dl[t * E + i] += p[i] * dg[j]; });
    } else if (r.order === "topk-softmax") {
      const dot = dg.reduce((a, v, j) => a + v * g[j], 0);
      sel.forEach((i, j) => { dl[t * E + i] += g[j] * (dg[j] - dot); });
    } else {
      const s = r.scores.subarray(t * E, (t + 1) * E);
      const z = sel.reduce((a, i) => a + s[i], 0), dot = dg.reduce((a, v, j) => a + v * g[j], 0);
      sel.forEach((i, j) => { const ds = k > 1 ? (dg[j] - dot) / z : dg[j]; dl[t * E + i] += ds * s[i] * (1 - s[i]); });
    }
  }
  return dl;
}
