import { notImplemented } from "../harness/index.js";

/** One message: at `step`, rank `from` sends its buffer[offset, offset + length) to rank `to`, which adds it to its own or copies it over. */
export interface ReduceMessage {
  step: number;
  from: number;
  to: number;
  offset: number;
  length: number;
  op: "add" | "copy";
}

/**
 * Exercise 5.2 — all-reduce across nodes: rings inside and between them.
 *
 * What: P = N·G ranks, G GPUs in each of N nodes (rank r sits on node
 * ⌊r/G⌋), each hold a buffer of n numbers. Leave the elementwise sum on
 * every rank, and return the messages you sent, so that each GPU sends as
 * little as possible over the network between nodes: links inside a node
 * (NVLink) are many times faster than a GPU's network port. A flat ring over
 * all P ranks makes the GPUs at each node's boundary send 2(P−1)/P · n over
 * the network; do better.
 * Input: `buffers`, P arrays of n numbers (not modified); `gpusPerNode` G.
 * Output: `{ result, messages }`: result[r] the sum on rank r (new arrays);
 * messages in any order. A message's range [offset, offset + length) lies in
 * the buffer; `op` says what the receiver does with it.
 * Graded: the sums (|Δ| ≤ 1e-9 + 1e-9·|expected|); your messages, replayed
 * from the input buffers step by step (all messages of a step read their
 * source before any lands), must leave the sum on every rank; each rank
 * sends at most 2(N−1)·⌈⌈n/G⌉/N⌉ numbers to other nodes and at most
 * 2(G−1)·⌈n/G⌉ inside its node (2(N−1)/N of a 1/G share, and 2(G−1)/G of
 * the buffer, when the divisions are exact); and there are at most
 * 2(G−1) + 2(N−1) steps (0-based, every step a number in that range).
 * Convention: chunks as numpy.array_split cuts them (the page's ring); a
 * message may carry nothing (length 0) or be left out.
 * Errors (RangeError): no buffer (`buffers must hold one buffer per rank
 * (numRanks >= 1), got 0 buffers`); buffers of different lengths
 * (`buffers[1] has length 3, expected 4 …`); a G that does not divide P
 * (`gpusPerNode must be an integer that divides the 6 ranks, got 4`).
 * Example: hierarchicalAllReduce([[1, 2], [3, 4], [5, 6], [7, 8]], 2).result
 * → [[16, 20], [16, 20], [16, 20], [16, 20]], each GPU sending one number
 * over the network.
 * Read: the chapter's ring and its two phases, "Reduce-scatter and all-gather".
 *
 * @param buffers P arrays of n numbers
 * @param gpusPerNode G, GPUs per node, which divides P
 * @returns the sum on every rank and the messages that made it
 * @throws {RangeError} as above
 */
export function hierarchicalAllReduce(buffers: number[][], gpusPerNode: number): { result: number[][]; messages: ReduceMessage[] } {
  return notImplemented("5.2");
}
