import { applyCapacity, expertCapacity } from "../nn/index.js";
import { localExpertCount } from "./expertPlacement.js";
import type { DispatchMessage, DispatchOptions, DispatchPlan, RankRouting } from "./types.js";





/**
 * Plans the dispatch all-to-all of an expert-parallel MoE layer on P ranks.
 *
 * 1. Drops: each rank applies its own capacity ⌈(N_r·k/E)·CF⌉ (applyCapacity, the given policy).
 * 2. Permutation: each rank orders its kept (token, slot) pairs by expert, then by token (Megatron's `permute`:
 *    tokens with the same expert are grouped), so the pairs for rank d's experts are one contiguous segment.
 * 3. Splits: splits[r][d] = kept pairs on rank r whose expert lives on rank d (experts placed contiguously).
 * 4. Messages: rank r's segment for d starts at h·Σ_{d'<d} splits[r][d'] in its send buffer and lands at
 *    h·Σ_{s<r} splits[s][d] in d's receive buffer, which holds, source by source, chunks per local expert.
 *
 * @param routings one {@link RankRouting} per rank (N_r may be 0)
 * @param o experts, k, P, capacity, drop policy, h
 * @returns the {@link DispatchPlan}
 * @throws {RangeError} `routings must hold one routing per rank (epSize = 2), got 3`; `routings[1]: experts and gates must have the same length, a multiple of topK = 2, got 3 and 3`;
 *   those of localExpertCount, expertCapacity and applyCapacity (e.g. `experts[4] must be an integer in [0, 8), got 9`)
 * @example planDispatch([{ experts: [1, 0], gates: [1, 1] }, { experts: [1, 1], gates: [1, 1] }], { numExperts: 2, topK: 1, epSize: 2, capacityFactor: null, dropPolicy: "position", hiddenSize: 3 }).messages
 *   // [{ sender: 0, receiver: 1, offset: 3, length: 3, receiverOffset: 0 }] (rank 0's token 0 goes to expert 1 on rank 1)
 * @see Megatron-LM `megatron/core/transformer/moe/token_dispatcher.py` at d98e8a6 (`MoEAlltoAllTokenDispatcher.preprocess`: input_splits, output_splits,
 *   num_global_tokens_per_local_expert; `dispatch_postprocess`: sort_chunks_by_idxs) and `moe_utils.py` (`permute`, `apply_router_token_dropping`); Lepikhin et al. 2020, *GShard* §3 (dispatch by all-to-all)
 */
export function planDispatch(routings: readonly RankRouting[], o: DispatchOptions): DispatchPlan {
  const P = o.epSize, E = o.numExperts, k = o.topK, h = o.hiddenSize;
  const L = localExpertCount(E, P);
  if (!Array.isArray(routings) || routings.length !== P) throw new RangeError(`routings must hold one routing per rank (epSize = ${P}), got ${Array.isArray(routings) ? routings.length : String(routings)}`);
  if (!Number.isInteger(h) || h < 1) throw new RangeError(`hiddenSize must be an integer >= 1, got ${h}`);
  const kept = routings.map((r, rank) => {
    if (r.experts.length !== r.gates.length || r.experts.length % k !== 0) throw new RangeError(`routings[${rank}]: experts and gates must have the same length, a multiple of topK = ${k}, got ${r.experts.length} and ${r.gates.length}`);
    const N = r.experts.length / k;
    const capacity = o.capacityFactor === null ? Infinity : expertCapacity(N, E, k, o.capacityFactor);
    return applyCapacity({ experts: Int32Array.from(r.experts), gates: Float32Array.from(r.gates), rows: N, topK: k, numExperts: E }, capacity, o.dropPolicy);
  });
  const sendOrder = routings.map((r, rank) => {
    const slots: number[] = [];
    for (let s = 0; s < r.experts.length; s++) if (kept[rank][s]) slots.push(s);
    return slots.sort((a, b) => r.experts[a] - r.experts[b] || a - b); // (expert, token): slot order follows token order
  });
  const perExpert = routings.map((r, rank) => { const c = new Array<number>(E).fill(0); for (const s of sendOrder[rank]) c[r.experts[s]]++; return c; });
  const splits = perExpert.map((c) => Array.from({ length: P }, (_, d) => c.slice(d * L, (d + 1) * L).reduce((a, b) => a + b, 0)));
  const received = Array.from({ length: P }, (_, d) => perExpert.map((c) => c.slice(d * L, (d + 1) * L)));
  const messages: DispatchMessage[] = [];
  for (let r = 0; r < P; r++) {
    for (let d = 0; d < P; d++) {
      if (r === d || splits[r][d] === 0) continue;
      const offset = h * splits[r].slice(0, d).reduce((a, b) => a + b, 0);
      const receiverOffset = h * splits.slice(0, r).reduce((a, row) => a + row[d], 0);
      messages.push({ sender: r, receiver: d, offset, length: h * splits[r][d], receiverOffset });
    }
  }
  return { kept, sendOrder, splits, received, messages };
}
