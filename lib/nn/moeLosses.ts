/**
 * The router's auxiliary losses: the load-balancing loss (Switch Transformer,
 * GShard) and the router z-loss (ST-MoE), each with its gradient with respect
 * to the router logits.
 */
import { topKIndices, type Routing } from "./moeRouting.js";

/**
 * A router loss's value, its gradient and what it counted.
 * @see the sources of {@link loadBalancingLoss} and {@link routerZLoss}
 */
export interface RouterLoss {
  /** The loss, without its coefficient. */
  loss: number;
  /** (N, E) ∂loss/∂logits. */
  dLogits: Float32Array;
  /** Tokens counted per expert (the load-balancing loss's c_i); empty for the z-loss. */
  tokensPerExpert: number[];
}

/**
 * The load-balancing auxiliary loss of N tokens over E experts, and its gradient.
 *
 * "switch" (Switch Transformer Eq. 4 without α; Megatron's `switch_load_balancing_loss_func` for top-k):
 * loss = E · Σ_i f_i · P_i, with f_i = c_i/(k·N) the fraction of the N·k routed pairs whose expert is i and
 * P_i = (1/N) Σ_t p_{t,i} the mean router probability of expert i. A uniform router gives 1.
 * "gshard" (GShard Algorithm 1): loss = (1/E) · Σ_i (c¹_i/N) · P_i with c¹ counting first choices only;
 * for k = 1 it is the Switch loss divided by E².
 *
 * The counts c_i are the top-k of `probs` before any token is dropped, and have no gradient: only P_i does.
 * With p_t = probs of token t and a_i = ∂loss/∂P_i / N: ∂loss/∂l_t = p_t ⊙ (a − ⟨a, p_t⟩) for softmax routing;
 * for "sigmoid" routing, probs q = s/Σs, so ∂loss/∂s_i = (a_i − ⟨a, q_t⟩)/Σs and ∂loss/∂l = that · s(1 − s).
 *
 * @param r the routing (its `probs` and `topK`)
 * @param variant "switch" (default) or "gshard"
 * @returns `{loss, dLogits (N, E), tokensPerExpert}`; N = 0 gives loss 0
 * @throws {RangeError} `variant must be "switch" or "gshard", got "x"`
 * @example loadBalancingLoss(topKRouting(new Float32Array(8), 2, 4, 1, "softmax-topk")).loss // 1: all logits equal, P_i = 1/4; f = [1, 0, 0, 0] (ties to expert 0), 4 · (1 · 1/4) = 1
 * @see Fedus et al. 2021, *Switch Transformers* §2.2, Eq. 4–6 (α · N · Σ f_i · P_i, α = 10⁻²); Lepikhin et al. 2020, *GShard* Algorithm 1 (l_aux);
 *   Megatron-LM `megatron/core/transformer/moe/moe_utils.py` at d98e8a6 (`switch_load_balancing_loss_func`, `compute_routing_scores_for_aux_loss`)
 */
export function loadBalancingLoss(r: Routing, variant: "switch" | "gshard" = "switch"): RouterLoss {
  if (variant !== "switch" && variant !== "gshard") throw new RangeError(`variant must be "switch" or "gshard", got ${JSON.stringify(variant)}`);
  const { rows: N, numExperts: E, topK: k, probs } = r;
  const dLogits = new Float32Array(N * E);
  const counts = new Array<number>(E).fill(0), P = new Float64Array(E);
  for (let t = 0; t < N; t++) {
    const row = probs.subarray(t * E, (t + 1) * E);
    topKIndices(row, variant === "switch" ? k : 1).forEach((i) => { counts[i]++; });
    for (let i = 0; i < E; i++) P[i] += row[i];
  }
  if (N === 0) return { loss: 0, dLogits, tokensPerExpert: counts };
  // loss = scale · Σ_i c_i · Σ_t p_{t,i}: switch E/(k·N²), gshard 1/(E·N²)
  const scale = variant === "switch" ? E / (k * N * N) : 1 / (E * N * N);
  const loss = scale * counts.reduce((s, c, i) => s + c * P[i], 0);
  const a = counts.map((c) => scale * c); // ∂loss/∂p_{t,i}, the same for every token
  for (let t = 0; t < N; t++) {
    const q = probs.subarray(t * E, (t + 1) * E);
    const dot = a.reduce((s, v, i) => s + v * q[i], 0);
    if (r.order === "sigmoid") {
      const s = r.scores.subarray(t * E, (t + 1) * E), z = s.reduce((x, y) => x + y, 0);
      for (let i = 0; i < E; i++) dLogits[t * E + i] = ((a[i] - dot) / z) * s[i] * (1 - s[i]);
    } else {
      for (let i = 0; i < E; i++) dLogits[t * E + i] = q[i] * (a[i] - dot);
    }
  }
  return { loss, dLogits, tokensPerExpert: counts };
}

/**
 * The router z-loss: the mean over tokens of the squared log-sum-exp of the router logits,
 * loss = (1/N) Σ_t (log Σ_i e^{l_{t,i}})², which keeps the logits small; its gradient is
 * ∂loss/∂l_{t,i} = (2/N) · lse_t · softmax(l_t)_i.
 *
 * @param logits (N, E) router logits
 * @param rows N (integer ≥ 0)
 * @param numExperts E (integer ≥ 1)
 * @returns `{loss, dLogits (N, E), tokensPerExpert: []}`; N = 0 gives 0
 * @throws {RangeError} `logits must have rows·numExperts = 8 elements, got 6`
 * @example routerZLoss(new Float32Array(4), 1, 4).loss // (ln 4)² ≈ 1.9218
 * @see Zoph et al. 2022, *ST-MoE* §3.1, Eq. 5 (router z-loss, coefficient 10⁻³); Megatron-LM moe_utils.py `z_loss_func` at d98e8a6
 */
export function routerZLoss(logits: Float32Array, rows: number, numExperts: number): RouterLoss {
  const N = rows, E = numExperts;
  if (logits.length !== N * E) throw new RangeError(`logits must have rows·numExperts = ${N * E} elements, got ${logits.length}`);
  const dLogits = new Float32Array(N * E);
  let loss = 0;
  for (let t = 0; t < N; t++) {
    const l = logits.subarray(t * E, (t + 1) * E);
    let m = -Infinity;
    for (const x of l) m = Math.max(m, x);
    let z = 0;
    for (const x of l) z += Math.exp(x - m);
    const lse = m + Math.log(z);
    loss += lse * lse;
    for (let i = 0; i < E; i++) dLogits[t * E + i] = ((2 * lse) / N) * (Math.exp(l[i] - m) / z);
  }
  return { loss: N === 0 ? 0 : loss / N, dLogits, tokensPerExpert: [] };
}
