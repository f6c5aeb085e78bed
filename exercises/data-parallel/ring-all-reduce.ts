import { notImplemented } from "../harness/index.js";

/** One message of your ring all-reduce: at `step`, rank `from` sends chunk `chunk` (`length` numbers) to rank `to`. */
export interface RingMessage {
  step: number;
  from: number;
  to: number;
  chunk: number;
  length: number;
}

/**
 * Exercise 5.2 — ring all-reduce, with its messages.
 *
 * P ranks each hold a buffer of n numbers. Return, for every rank, the
 * elementwise sum of all P buffers, computed the way the ring does it, and
 * the list of messages you sent:
 *
 * - cut the buffer into P chunks like numpy.array_split: the first n mod P
 *   chunks have ⌈n/P⌉ numbers, the rest ⌊n/P⌋ (some are empty when n < P);
 * - reduce-scatter, steps 0 … P−2: every rank sends one chunk to rank
 *   (r + 1) mod P, which adds it into its own copy of that chunk; choose the
 *   chunks so that after P−1 steps each chunk is complete on some rank;
 * - all-gather, steps P−1 … 2P−3: every rank sends one complete chunk to
 *   rank (r + 1) mod P, which copies it.
 *
 * The grader checks the sums (tolerance |Δ| ≤ 1e-9 + 1e-9·|expected|) and the
 * pattern: each rank sends exactly 2(P−1) messages, one per step, all to
 * (r + 1) mod P, each of its chunk's length, so that each rank sends
 * 2(P−1)/P · n numbers when P divides n; and replaying your messages (the
 * receiver adds the chunk in steps 0 … P−2 and copies it in steps P−1 … 2P−3,
 * every chunk of a step read before any lands) must leave the sum on every
 * rank. Messages for empty chunks (n < P) may be recorded with length 0 or
 * left out. P = 1 sends nothing. Do not modify `buffers`; return new arrays.
 * Errors (RangeError): no buffer, `buffers must hold one buffer per rank (numRanks >= 1), got 0 buffers`;
 * buffers of different lengths, `buffers[1] has length 3, expected 4 (every rank's buffer must have the same length)`.
 * Read: the chapter's "ring all-reduce" section; Patarasuk & Yuan 2009.
 *
 * @param buffers P arrays of n numbers (P ≥ 1)
 * @returns `{result, messages}`: result[r] is the sum (n numbers) on rank r
 * @example ringAllReduce([[1, 2], [10, 20]]).result // [[11, 22], [11, 22]]
 */
export function ringAllReduce(buffers: number[][]): { result: number[][]; messages: RingMessage[] } {
  return notImplemented("5.2");
}
