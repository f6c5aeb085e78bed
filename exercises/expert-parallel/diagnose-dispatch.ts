import { notImplemented } from "../harness/index.js";

import type { LoggedMessage, DispatchSetup } from "../../lib/expert-parallel/types.js";

/**
 * The types (documented in lib/expert-parallel/types.ts, which you may read):
 * - LoggedMessage { sender, receiver, bytes, t, tEnd }: one message as the course's World logs it (t, tEnd: the step's start and end, seconds);
 * - DispatchSetup { numRanks P, tokensPerRank N, topK k, hiddenSize h, bytesPerElement, cost { alphaS, bandwidthBytesPerS }
 *   (a rank's link inside its node), topology? { ranksPerNode g, interNodeBandwidthBytesPerS } (ranks r and s share a
 *   node when ⌊r/g⌋ = ⌊s/g⌋; absent: one node) }.
 */
export type { LoggedMessage, DispatchSetup };

/**
 * Exercise 14.5 — diagnose a slow dispatch: a collapsed router in the all-to-all's log.
 *
 * An MoE layer's dispatch all-to-all took far longer than planned. You have the World's log of that one all-to-all
 * (every message between different ranks, all in one step) and its setup; no token was dropped, and every rank
 * routed N·k (token, expert) pairs. Return:
 * - `receivedPerRank[d]`: the pairs rank d's experts received, its own rank's pairs included;
 * - `hotRank`: the rank that received the most (the lowest index on ties);
 * - `slowdown`: the logged step time (tEnd − t) over the time the same all-to-all would take if routing were
 *   perfectly balanced (every rank sending N·k/P pairs to every rank, itself included), timed by the course's
 *   α-β model with its nodes; 1 when neither moves a byte.
 * Errors: RangeError for a message whose bytes are not a whole number of tokens (h·bytesPerElement).
 * Read: the chapter's section "What an all-to-all costs". Do not read lib/expert-parallel beyond types.ts.
 *
 * @param messages the logged messages of one dispatch
 * @param s the setup
 * @returns the diagnosis (a new object)
 * @example
 * diagnoseDispatch([{ sender: 1, receiver: 0, bytes: 8, t: 0, tEnd: 1 }],
 *   { numRanks: 2, tokensPerRank: 1, topK: 1, hiddenSize: 2, bytesPerElement: 4, cost: { alphaS: 0, bandwidthBytesPerS: 8 } })
 * // → { receivedPerRank: [2, 0], hotRank: 0, slowdown: 2 }
 */
export function diagnoseDispatch(messages: LoggedMessage[], s: DispatchSetup): { receivedPerRank: number[]; hotRank: number; slowdown: number } {
  return notImplemented("14.5");
}
