import { uniformAllToAllCost } from "../collectives/index.js";
import type { DispatchDiagnosis, DispatchSetup, LoggedMessage } from "./types.js";




/**
 * Reads a dropless dispatch all-to-all's log: every rank routed N·k pairs; a rank's pairs for its own experts
 * never appear in the log (they are copied locally), so rank d received Σ_{s≠d} bytes(s→d)/(h·b) from others
 * plus N·k − (what it sent)/(h·b) from itself. Balanced routing sends N·k/P pairs to every rank: the
 * closed form {@link uniformAllToAllCost} of S = N·k·h·b bytes per rank, nodes included.
 *
 * @param messages the logged messages of one dispatch (all in one step)
 * @param s the setup
 * @returns received pairs per rank, the hot rank and the slowdown
 * @throws {RangeError} `messages[2]: sender 5 out of [0, 4)`; `messages[0] carries 10 bytes, not a whole number of tokens of 16 bytes`
 * @example diagnoseDispatch([{ sender: 1, receiver: 0, bytes: 8, t: 0, tEnd: 1 }], { numRanks: 2, tokensPerRank: 1, topK: 1, hiddenSize: 2, bytesPerElement: 4, cost: { alphaS: 0, bandwidthBytesPerS: 8 } })
 *   // { receivedPerRank: [2, 0], hotRank: 0, slowdown: 2 } (balanced: each rank sends half a token, 0.5 s)
 * @see Lepikhin et al. 2020, *GShard* §3 (the all-to-all waits for the busiest expert's device); lib/collectives allToAll and uniformAllToAllCost
 */
export function diagnoseDispatch(messages: readonly LoggedMessage[], s: DispatchSetup): DispatchDiagnosis {
  const P = s.numRanks, tok = s.hiddenSize * s.bytesPerElement, routed = s.tokensPerRank * s.topK;
  const sent = new Array<number>(P).fill(0), got = new Array<number>(P).fill(0);
  messages.forEach((m, i) => {
    for (const [k, r] of [["sender", m.sender], ["receiver", m.receiver]] as const) if (!Number.isInteger(r) || r < 0 || r >= P) throw new RangeError(`messages[${i}]: ${k} ${r} out of [0, ${P})`);
    if (m.bytes % tok !== 0) throw new RangeError(`messages[${i}] carries ${m.bytes} bytes, not a whole number of tokens of ${tok} bytes`);
    sent[m.sender] += m.bytes / tok; got[m.receiver] += m.bytes / tok;
  });
  const receivedPerRank = got.map((g, d) => g + routed - sent[d]);
  const hotRank = receivedPerRank.reduce((best, v, d) => (v > receivedPerRank[best] ? d : best), 0);
  const measured = messages.length === 0 ? 0 : Math.max(...messages.map((m) => m.tEnd)) - Math.min(...messages.map((m) => m.t));
  const balanced = uniformAllToAllCost(routed * tok, P, s.cost, s.topology).timeS;
  return { receivedPerRank, hotRank, slowdown: balanced === 0 ? (measured === 0 ? 1 : Infinity) : measured / balanced };
}
