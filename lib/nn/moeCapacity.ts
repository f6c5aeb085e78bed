/**
 * Expert capacity and token dropping: how many token slots each expert has in
 * one group of tokens, and which routed (token, expert) pairs exceed it.
 */
import type { Routing } from "./moeRouting.js";

/**
 * Which routed pairs an over-full expert keeps.
 * - `"position"`: the first `capacity` tokens in token order (Switch Transformer; Megatron `--moe-token-drop-policy position`).
 * - `"probs"`: the `capacity` pairs with the largest gates, ties to the lower token index (Megatron's default policy).
 * @see the sources of {@link applyCapacity}
 */
export type DropPolicy = "position" | "probs";

/**
 * The number of tokens each expert may take from a group of T tokens routed
 * to k of E experts: capacity = ⌈(T·k/E) · CF⌉.
 *
 * @param numTokens T, tokens in the group (integer ≥ 0)
 * @param numExperts E (integer ≥ 1)
 * @param topK k (integer in [1, E])
 * @param capacityFactor CF (finite, > 0)
 * @returns the capacity, an integer ≥ 0
 * @throws {RangeError} `capacityFactor must be a finite number > 0, got 0`; `numTokens must be an integer >= 0, got -1`;
 *   `numExperts must be an integer >= 1, got 0`; `topK must be an integer in [1, numExperts = 8], got 9`
 * @example expertCapacity(4096, 8, 2, 1.25) // 1280 = ⌈(4096·2/8)·1.25⌉
 * @see Fedus et al. 2021, *Switch Transformers* §2.2, Eq. 3 (expert capacity = tokens per batch / experts × capacity factor);
 *   Lepikhin et al. 2020, *GShard* §2.2 (expert capacity per group); Megatron-LM `megatron/core/transformer/moe/moe_utils.py` at d98e8a6,
 *   `get_capacity(num_tokens · topk, num_experts, capacity_factor)` = ceil(num_tokens / num_experts · capacity_factor)
 */
export function expertCapacity(numTokens: number, numExperts: number, topK: number, capacityFactor: number): number {
  if (!Number.isInteger(numTokens) || numTokens < 0) throw new RangeError(`numTokens must be an integer >= 0, got ${numTokens}`);
  if (!Number.isInteger(numExperts) || numExperts < 1) throw new RangeError(`numExperts must be an integer >= 1, got ${numExperts}`);
  if (!Number.isInteger(topK) || topK < 1 || topK > numExperts) throw new RangeError(`topK must be an integer in [1, numExperts = ${numExperts}], got ${topK}`);
  if (typeof capacityFactor !== "number" || !Number.isFinite(capacityFactor) || capacityFactor <= 0) throw new RangeError(`capacityFactor must be a finite number > 0, got ${capacityFactor}`);
  return Math.ceil(((numTokens * topK) / numExperts) * capacityFactor);
}

/**
 * Which routed (token, slot) pairs fit their expert's capacity.
 *
 * For each expert, the pairs routed to it are ranked (by token index for
 * "position"; by gate, largest first, then token index, for "probs") and the
 * first `capacity` are kept. A dropped pair contributes nothing: the token's
 * output from that expert is 0 and its gate gets no gradient (the residual
 * connection still carries the token).
 *
 * @param r the routing of the group's tokens (its experts, gates, rows, topK and numExperts)
 * @param capacity tokens per expert (integer ≥ 0), or Infinity for dropless
 * @param policy which pairs an over-full expert keeps (default "position")
 * @returns (N, k) 1 where the pair is kept, 0 where it is dropped (a new Uint8Array)
 * @throws {RangeError} `capacity must be an integer >= 0 or Infinity, got 1.5`; `policy must be "position" or "probs", got "x"`
 * @example applyCapacity(topKRouting(Float32Array.of(1, 0, 1, 0, 0, 1), 3, 2, 1, "softmax-topk"), 1) // Uint8Array [1, 0, 1]
 * @see Fedus et al. 2021, *Switch Transformers* §2.2 (overflowing tokens skip the expert through the residual);
 *   Megatron-LM `moe_utils.py` `apply_router_token_dropping` at d98e8a6 (drop_policy "probs" and "position")
 */
export function applyCapacity(r: Pick<Routing, "experts" | "gates" | "rows" | "topK" | "numExperts">, capacity: number, policy: DropPolicy = "position"): Uint8Array {
  if (capacity !== Infinity && (!Number.isInteger(capacity) || capacity < 0)) throw new RangeError(`capacity must be an integer >= 0 or Infinity, got ${capacity}`);
  if (policy !== "position" && policy !== "probs") throw new RangeError(`policy must be "position" or "probs", got ${JSON.stringify(policy)}`);
  const { rows: N, topK: k, numExperts: E } = r;
  const kept = new Uint8Array(N * k);
  const byExpert: number[][] = Array.from({ length: E }, () => []); // slot indices t·k + j, in token order
  for (let s = 0; s < N * k; s++) {
    const e = r.experts[s];
    if (!Number.isInteger(e) || e < 0 || e >= E) throw new RangeError(`experts[${s}] must be an integer in [0, ${E}), got ${e}`);
    byExpert[e].push(s);
  }
  for (const slots of byExpert) {
    if (policy === "probs") slots.sort((a, b) => r.gates[b] - r.gates[a] || a - b);
    slots.slice(0, Math.min(slots.length, capacity)).forEach((s) => { kept[s] = 1; });
  }
  return kept;
}
