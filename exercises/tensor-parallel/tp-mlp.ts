import { notImplemented } from "../harness/index.js";

/** A tensor-parallel group of T simulated ranks (the course's World runs the collective). */
export interface TpGroup {
  T: number;
  /** Ring all-reduce: one buffer per rank in, their elementwise sum on every rank out (new arrays). */
  allReduce(buffers: Float32Array[]): Float32Array[];
}

/** Rank r's shard of the residual MLP y = x + tanh(x·W1 + b1)·W2 + b2 (row-major), and its gradients. */
export interface MlpShard {
  /** (h, H/T): columns r·H/T … (r+1)·H/T − 1 of W1. */
  W1: Float32Array;
  /** (H/T): the same slice of b1. */
  b1: Float32Array;
  /** (H/T, h): rows r·H/T … (r+1)·H/T − 1 of W2. */
  W2: Float32Array;
  /** (h): b2, one copy per rank. */
  b2: Float32Array;
  /** Gradients, same shapes: ADD into them (do not overwrite), like PyTorch's .grad. */
  dW1: Float32Array;
  db1: Float32Array;
  dW2: Float32Array;
  db2: Float32Array;
}

/**
 * Exercise 6.1 — build it: a tensor-parallel MLP block, forward and backward.
 *
 * The block is lib/nn's residual MLP, y = x + tanh(x·W1 + b1)·W2 + b2, with
 * x, y (N, h), W1 (h, H), W2 (H, h), split Megatron-style over `group.T` ranks:
 * W1 and b1 by columns (column-parallel), W2 by rows (row-parallel), b2 replicated.
 * Every rank holds the same x and the same output gradient dy (N, h).
 *
 * Compute the forward output y and the input gradient dx = ∂L/∂x (both (N, h),
 * the same on every rank, return one), and ADD each rank's weight gradients
 * into its shard (dW1, db1, dW2, db2 of every rank: db2 is the same on all).
 * Communicate only through `group.allReduce`, as Megatron does: its cost is
 * graded (the course's World logs every message).
 *
 * Convention: Shoeybi et al. 2019, *Megatron-LM*, §3 (Figure 3a); matrices row-major.
 * Tolerance: |Δ| ≤ 1e-5 against one device (float32 sums re-associated).
 * Errors: RangeError `H (6) must be divisible by T (4)`; RangeError
 * `shards must hold one shard per rank (T = 2), got 1`.
 * Read: the chapter's section "The transformer MLP on T ranks".
 *
 * @param group the tensor-parallel group
 * @param shards one shard per rank
 * @param x (N, h) input
 * @param dy (N, h) gradient of the loss with respect to y
 * @param dims N (rows), h (width), H (inner width)
 * @returns y and dx, (N, h) each, new arrays
 * @example
 * // T = 1, N = 1, h = 1, H = 1: W1 = [0], b1 = [0], W2 = [1], b2 = [0.5]: y = x + tanh(0)·1 + 0.5
 * tpMlpForwardBackward(group1, [shard], Float32Array.of(2), Float32Array.of(1), { N: 1, h: 1, H: 1 })
 * // → { y: [2.5], dx: [1] }, and shard.dW2 += [0], shard.db2 += [1], shard.dW1 += [2], shard.db1 += [1]
 */
export function tpMlpForwardBackward(group: TpGroup, shards: MlpShard[], x: Float32Array, dy: Float32Array, dims: { N: number; h: number; H: number }): { y: Float32Array; dx: Float32Array } {
  return notImplemented("6.1");
}
