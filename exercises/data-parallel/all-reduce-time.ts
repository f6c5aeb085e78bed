import { notImplemented } from "../harness/index.js";

/** α-β cost model: α seconds per message, B bytes per second per link; the server's link may differ. */
export interface LinkCost {
  alphaS: number;
  bandwidthBytesPerS: number;
  /** Bandwidth of the parameter server's link (default: bandwidthBytesPerS). */
  serverBandwidthBytesPerS?: number;
}

/**
 * Exercise 5.1 — all-reduce time under the α-β model.
 *
 * Return the time in seconds to all-reduce n float32 values (4 bytes each)
 * over P ranks, where a step in which a link carries m bytes lasts α + m/B:
 *
 * - "ring": 2(P−1) steps (reduce-scatter, then all-gather). In every step each
 *   rank sends one chunk, and the chunks are cut like numpy.array_split, so
 *   the slowest message of a step carries the largest chunk, ⌈n/P⌉ values.
 * - "parameter-server": 2 steps (push, pull). In each step the server's link
 *   carries P−1 buffers of n values at the server's bandwidth, while each
 *   worker's link carries one buffer at its own bandwidth; the step lasts α
 *   plus the slower of the two.
 *
 * n = 0 or P = 1: nothing is sent, the time is 0.
 * Throw a RangeError for P < 1 or not an integer, n < 0 or not an integer,
 * α < 0, or a bandwidth ≤ 0.
 * Tolerance |Δ| ≤ 1e-15 + 1e-9·|expected|.
 * Read: the chapter's "Bytes per rank and time against P" section.
 *
 * @param algorithm "ring" or "parameter-server"
 * @param numElements n
 * @param numRanks P
 * @param cost α in seconds, bandwidths in bytes per second
 * @returns seconds
 * @example allReduceTimeS("ring", 8, 4, { alphaS: 1, bandwidthBytesPerS: 8 }) // 6 steps × (1 + 8/8) = 12
 */
export function allReduceTimeS(algorithm: "ring" | "parameter-server", numElements: number, numRanks: number, cost: LinkCost): number {
  return notImplemented("5.1");
}
