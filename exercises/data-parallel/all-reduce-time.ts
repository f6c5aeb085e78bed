import { notImplemented } from "../harness/index.js";

/** α-β cost model: α seconds per message, B bytes per second per link and direction; the server's link may differ. */
export interface LinkCost {
  alphaS: number;
  bandwidthBytesPerS: number;
  /** Bandwidth of the parameter server's link (default: bandwidthBytesPerS). */
  serverBandwidthBytesPerS?: number;
}

/**
 * Exercise 5.1 — all-reduce time under the α-β model.
 *
 * Contract: the time in seconds that the chapter's simulated cluster takes to
 * all-reduce n float32 values (4 bytes each) over P ranks, with
 *
 * - "ring": the ring all-reduce of the page, chunks cut like numpy.array_split;
 * - "parameter-server": push then pull through rank 0, whose link runs at
 *   `serverBandwidthBytesPerS` (every other link at `bandwidthBytesPerS`).
 *
 * Timing convention (the page's "The collectives, on a simulated cluster",
 * after Hockney 1994): links are full duplex; all messages of a step travel
 * at once, and a step lasts α plus the longest time any one link needs for
 * the bytes it carries in that step (sending or receiving). Steps run one after
 * another. Nothing to send (n = 0 or P = 1) takes 0 s.
 *
 * Errors (RangeError, the message names the field):
 * `numRanks must be an integer >= 1, got 0`, `numElements must be an integer >= 0, got -1`,
 * `alphaS must be a finite number >= 0, got -1`, `bandwidthBytesPerS must be a finite number > 0, got 0`
 * (and the same for `serverBandwidthBytesPerS` when given),
 * `algorithm must be "ring" or "parameter-server", got "tree"`.
 * Tolerance |Δ| ≤ 1e-15 + 1e-9·|expected|.
 * Read first: the page's sections "Ring all-reduce, step by step", "The parameter server, beside it"
 * and "Bytes per rank and time against P". Do not read lib/collectives/collectiveCost.ts before solving.
 *
 * @param algorithm "ring" or "parameter-server"
 * @param numElements n, float32 values per rank
 * @param numRanks P
 * @param cost α in seconds, bandwidths in bytes per second
 * @returns seconds
 * @example allReduceTimeS("ring", 8, 4, { alphaS: 1, bandwidthBytesPerS: 8 }) // 12
 */
export function allReduceTimeS(algorithm: "ring" | "parameter-server", numElements: number, numRanks: number, cost: LinkCost): number {
  return notImplemented("5.1");
}
