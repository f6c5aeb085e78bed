import { notImplemented } from "../harness/index.js";

/** The model, the link and the split (the same fields as lib/context-parallel's OverlapOptions). */
export interface OverlapOptions {
  /** h = numHeads · head dimension. */
  hiddenSize: number;
  numHeads: number;
  /** KV heads (grouped-query attention); numHeads for multi-head attention. */
  numKvHeads: number;
  /** b, sequences per micro-batch. */
  microBatch: number;
  /** Bytes per element of K and V on the wire (2 for bf16): a finite number > 0, not necessarily an integer (0.5 for a 4-bit format). */
  bytesPerElement: number;
  /** F: sustained FLOP/s of one GPU on attention. */
  deviceFlopsPerS: number;
  /** α (seconds per message) and B (bytes per second) of the link between neighbours of the ring. */
  cost: { alphaS: number; bandwidthBytesPerS: number };
  /** C. */
  cpSize: number;
  layout: "contiguous" | "zigzag" | "striped";
  causal: boolean;
}

/**
 * Exercise 13.4 — the fewest tokens per rank that hide the ring.
 *
 * Ring attention (forward pass) on C ranks, c tokens per rank (the sequence has c·C tokens, split
 * with `layout`). At every step s = 0 … C−2 each rank computes its queries against the block it
 * holds while the next block travels to it. Return the smallest c for which, at every such step
 * and on every rank, the compute takes at least as long as that transfer (a tie counts as hidden:
 * compare with a relative tolerance of 1e-12).
 *
 * The costs, as the chapter counts them:
 * - compute of a block: 4·w·h·b FLOPs at F FLOP/s, where w is the number of (query, key) pairs the
 *   mask keeps in that rank's block at that step (c² without a mask);
 * - transfer of a block: α + 2·c·h_kv·b·e / B seconds, h_kv = numKvHeads · h / numHeads, e = bytesPerElement.
 * c must give a valid split (the zig-zag layout cuts the sequence into 2·C chunks). With C = 1 nothing
 * is sent: return the smallest valid c. When no c hides the ring, return Infinity.
 * Errors: RangeError naming the field when a size or count (hiddenSize, numHeads, numKvHeads,
 * microBatch, cpSize) is not an integer ≥ 1, deviceFlopsPerS or bytesPerElement is not finite and
 * > 0 (bytesPerElement need not be an integer), or the layout is unknown; α must be ≥ 0 and B > 0
 * (RangeError naming it).
 * Read: the chapter's sections "Overlapping the ring with compute" and "Causal masks and load balance".
 *
 * @param o the model, the link and the split
 * @returns c, an integer, or Infinity
 * @example
 * // Liu et al.'s case: no mask, α = 0, multi-head, bf16, 312 TFLOP/s over 300 GB/s
 * minTokensPerRank({ hiddenSize: 4096, numHeads: 32, numKvHeads: 32, microBatch: 1, bytesPerElement: 2, deviceFlopsPerS: 312e12,
 *   cost: { alphaS: 0, bandwidthBytesPerS: 300e9 }, cpSize: 8, layout: "contiguous", causal: false }) // → 1040
 */
export function minTokensPerRank(o: OverlapOptions): number {
  return notImplemented("13.4");
}
