import { notImplemented } from "../harness/index.js";

/**
 * Exercise 5.3 — reduce-scatter.
 *
 * Contract: P ranks each hold a buffer of n numbers. Return, for every rank r,
 * chunk r of the elementwise sum of all P buffers, where the buffer is cut into
 * P chunks as numpy.array_split cuts it (the convention of this chapter and of
 * lib/collectives/chunkBounds: chunks in order, lengths differing by at most
 * one, longer chunks first). ZeRO and FSDP use this collective to leave each
 * rank with its shard of the summed gradients.
 *
 * Shapes: `buffers` (P, n) → result: P arrays, result[r] of chunk r's length
 * (empty when n < P leaves chunk r empty). Return new arrays; do not modify `buffers`.
 * Errors (RangeError): no buffer, `buffers must hold one buffer per rank (numRanks >= 1), got 0 buffers`;
 * buffers of different lengths, `buffers[1] has length 3, expected 4 (every rank's buffer must have the same length)`.
 * Tolerance |Δ| ≤ 1e-9 + 1e-9·|expected|.
 * Read first: the page's sections "Ring all-reduce, step by step" (the chunks) and
 * "Reduce-scatter and all-gather".
 *
 * @param buffers P arrays of n numbers
 * @returns P arrays: chunk r of the elementwise sum, for rank r
 * @example reduceScatter([[1, 2, 3], [10, 20, 30]]) // [[11, 22], [33]]
 */
export function reduceScatter(buffers: number[][]): number[][] {
  return notImplemented("5.3");
}
