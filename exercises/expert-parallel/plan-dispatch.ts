import { notImplemented } from "../harness/index.js";

import type { RankRouting, DispatchOptions, DispatchMessage } from "../../lib/expert-parallel/types.js";

/**
 * The types (documented in lib/expert-parallel/types.ts, which you may read):
 * - RankRouting { experts, gates }: (N_r, k) each, row-major;
 * - DispatchOptions { numExperts E, topK k, epSize P, capacityFactor (null: dropless), dropPolicy, hiddenSize h };
 *   dropPolicy "position": an over-full expert keeps its first tokens in token order; "probs": its largest gates,
 *   ties to the lower token index;
 * - DispatchMessage { sender, receiver, offset, length, receiverOffset }, in elements of the flat buffers.
 */
export type { RankRouting, DispatchOptions, DispatchMessage };

/**
 * Exercise 14.3 — the dispatch plan of an expert-parallel MoE layer.
 *
 * P ranks each hold their own tokens, already routed (`routings[r]`: expert ids and gates, (N_r, k); N_r may be 0).
 * Expert e lives on rank ⌊e/(E/P)⌋. Return what the dispatch all-to-all does:
 * - `kept[r]` (N_r·k numbers, 1 or 0): which (token, slot) pairs rank r keeps. Each rank applies its own capacity,
 *   ⌈(N_r·k/E)·CF⌉ per expert, with the drop policy; nothing is dropped when capacityFactor is null.
 * - `sendOrder[r]`: rank r's kept pairs as slot indices t·k + j, ordered by expert, then by token (Megatron's permute).
 * - `splits[r][d]`: how many tokens (pairs) rank r sends to rank d, its own included.
 * - `messages`: one per (sender, receiver) pair of different ranks that has at least one token, in order of sender,
 *   then receiver; offsets and lengths in elements (a token is h elements). Rank r's send buffer is its rows in
 *   `sendOrder[r]`; rank d's receive buffer holds what it gets, sender by sender (a rank's own segment is copied
 *   in place, not sent, but it takes its place among the senders).
 * Errors: RangeError when routings are not one per rank, or when experts and gates of a rank differ in length.
 * Read: the chapter's section "Planning the dispatch". Do not read lib/expert-parallel beyond types.ts.
 *
 * @param routings one routing per rank
 * @param o experts, k, P, capacity, drop policy, h
 * @returns kept, sendOrder, splits and messages (new arrays)
 * @example
 * planDispatch([{ experts: [1, 0], gates: [1, 1] }, { experts: [1, 1], gates: [1, 1] }],
 *   { numExperts: 2, topK: 1, epSize: 2, capacityFactor: null, dropPolicy: "position", hiddenSize: 3 })
 * // → kept [[1, 1], [1, 1]], sendOrder [[1, 0], [0, 1]], splits [[1, 1], [0, 2]],
 * //   messages [{ sender: 0, receiver: 1, offset: 3, length: 3, receiverOffset: 0 }]
 */
export function planDispatch(routings: RankRouting[], o: DispatchOptions): { kept: number[][]; sendOrder: number[][]; splits: number[][]; messages: DispatchMessage[] } {
  return notImplemented("14.3");
}
