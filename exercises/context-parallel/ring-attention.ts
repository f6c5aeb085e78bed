import { notImplemented } from "../harness/index.js";

/** A ring of C simulated ranks (the course's World carries the messages and logs them). */
export interface Ring {
  /** C, the number of ranks. */
  readonly cpSize: number;
  /**
   * One ring step: rank r's buffer goes to rank (r + 1) mod C. Returns, for every rank r, the buffer it
   * received from rank (r − 1) mod C (new arrays). Every rank's buffer must have the same length.
   */
  sendRecv(buffers: readonly Float32Array[]): Float32Array[];
}

/** One rank's tokens: q, k, v (B, H, n, d) row-major at the global positions `positions` (n of them), and optionally dO. */
export interface CpShard {
  q: Float32Array;
  k: Float32Array;
  v: Float32Array;
  /** The global positions of this rank's n tokens, in the order of its rows (any placement: not only the page's three layouts). */
  positions: readonly number[];
  /** (B, H, n, d): the gradient of the loss with respect to this rank's output. Given on every shard or on none. */
  dO?: Float32Array;
}

/** One rank's result. */
export interface CpShardResult {
  /** (B, H, n, d): attention output of the rank's queries over every key of the sequence. */
  O: Float32Array;
  /** (B, H, n): log Σ exp of each query's kept scores over the whole sequence. */
  lse: Float32Array;
  /** With dO: the gradient of the rank's queries, and of its own keys and values, (B, H, n, d) each. */
  dq?: Float32Array;
  dk?: Float32Array;
  dv?: Float32Array;
}

/** Sizes on one rank: B, H, n tokens, head dimension d. */
export interface RingDims {
  B: number;
  H: number;
  n: number;
  d: number;
}

/**
 * Exercise 13.2 — build it: ring attention, forward and backward.
 *
 * C ranks hold one shard each of a sequence of N = C·n tokens. Compute, on every rank, exact
 * attention of its queries over all N keys: O = softmax(scale·QKᵀ + mask)V row by row, with the
 * causal mask in *global* positions (key position ≤ query position) when `o.causal`, no mask
 * otherwise, scale = o.scale ?? 1/√d. When the shards carry dO, also return dq, and the dk, dv of
 * each rank's own keys and values (the gradients of Σ dO·O).
 *
 * Communicate only through `ring.sendRecv`, and only as ring attention does. Rank r may read only
 * its own shard's q, k, v and dO (and every shard's positions): other ranks' keys and values reach
 * it through the ring (the grader checks each rank's O, lse and dq in a run where the other shards
 * hold fake k and v, and the ring turns each fake [K | V] block it carries into the true one). The
 * grader reads the World's log of every message (its length and its content):
 * - forward: a rank keeps its queries and holds one key/value block at a time, sent as one buffer
 *   [K | V] of 2·B·H·n·d elements; the blocks move one rank along the ring between steps: C − 1 sendRecv;
 * - backward: K and V go round again (C − 1 moves; do not keep the blocks of the forward pass, which
 *   would cost C blocks of memory), and the gradients of each block travel with it and come back to
 *   its owner: dK | dV move C times (you may pack them with K | V while both travel).
 * With C = 1 nothing is sent. You may use chapter 10's lib/flash-attention (referenceAttention with
 * a `mask`, flashAttentionBackward with given O and lse) and your exercise 13.1.
 *
 * Tolerance: |Δ| ≤ 2e-5 against one device (float32). Results are new arrays; do not modify the shards.
 * Errors: RangeError `shards must hold one shard per rank (cpSize = 4), got 3`.
 * Read: the chapter's sections "Ring attention, block by block" and "The backward pass around the ring".
 *
 * @param ring the ring (C = ring.cpSize)
 * @param shards one shard per rank; their positions are 0 … N−1 once each
 * @param dims B, H, n, d per rank
 * @param o causal (default false), scale (default 1/√d)
 * @returns one result per rank, in rank order
 * @example
 * // C = 2, one token each (B = H = d = 1), causal, scale 1: rank 0 holds position 1, rank 1 position 0
 * ringAttention(ring2, [{ q: [1], k: [0], v: [4], positions: [1] }, { q: [1], k: [Math.log(3)], v: [8], positions: [0] }], { B: 1, H: 1, n: 1, d: 1 }, { causal: true, scale: 1 })
 * // → [{ O: [7], lse: [ln 4] }, { O: [8], lse: [ln 3] }]: token 1 sees both keys (weights 1/4 and 3/4), token 0 only its own
 */
export function ringAttention(ring: Ring, shards: readonly CpShard[], dims: RingDims, o: { causal?: boolean; scale?: number } = {}): CpShardResult[] {
  return notImplemented("13.2");
}
