import { notImplemented } from "../harness/index.js";

/** One message: `length` float32 values of the sender's buffer at `offset` go to the receiver's buffer at the same offset, added ("reduce") or copied ("copy"). */
export interface GradMessage {
  sender: number;
  receiver: number;
  offset: number;
  length: number;
  op: "reduce" | "copy";
}

/** The simulated cluster your reducer drives during backward (the grader builds it; see the page). */
export interface GradCluster {
  /** P, the number of ranks. */
  readonly numRanks: number;
  /** grads[r]: rank r's gradient buffer, every parameter in forward order, concatenated (float32). Reading and writing it is local and free. */
  readonly grads: Float32Array[];
  /** Sends the messages of one step (they travel at the same time); returns the step's end, ms from the start of backward. */
  step(messages: readonly GradMessage[]): number;
}

/** Bucket caps in bytes (a gradient value is 4 bytes). */
export interface BucketCaps {
  bucketCapBytes: number;
  firstBucketCapBytes: number;
}

/** What the training loop calls: `gradReady(i)` once parameter i's gradient is in every rank's buffer, `finish()` after backward. */
export interface DdpReducer {
  gradReady(paramIndex: number): void;
  finish(): void;
}

/**
 * Exercise 5.6 — build it: DDP's reducer, from a ring and buckets.
 *
 * Contract: return the reducer that one DDP training step uses on `cluster`.
 * The grader trains the chapter's MLP on P simulated ranks with it: in each
 * step backward writes each parameter's gradient into every rank's buffer at
 * its ready time and calls `gradReady(i)`, then calls `finish()`, then every
 * rank takes an SGD step with what its own buffer holds. When `finish()`
 * returns, every rank's buffer must hold the **mean over ranks** of the
 * gradients, so that the weights stay equal to single-process training on the
 * whole batch (|Δθ| ≤ 1e-6 after 20 steps, the page's tolerance) and equal on
 * every rank (bit for bit).
 *
 * The communication must be DDP's (Li et al. 2020, §3.2.3; PyTorch reducer.cpp):
 * - buckets as exercise 5.4 forms them (gradient-ready order = reverse forward
 *   order, `caps`, 4 bytes per value); a bucket's parameters are consecutive,
 *   so it is one range of the buffer;
 * - each bucket is all-reduced by the ring of exercise 5.2 over its own range
 *   (chunks as numpy.array_split cuts the range), one `cluster.step` per ring step,
 *   every message from rank r to rank (r + 1) mod P;
 * - buckets are all-reduced in bucket order, each as soon as it may be: all its
 *   gradients ready and every earlier bucket launched. Until `gradReady(i)`, the
 *   values of parameter i are not in the buffers (they are NaN). The ready order
 *   may differ from the reverse forward order.
 *
 * Shapes and units: `paramSizes[i]` values of parameter i (forward order; the
 * MLP's W1, b1, W2, b2), `grads[r]` has Σ paramSizes values; times in ms.
 * Errors: none required. Do not keep state between calls of createDdpReducer.
 * Read first: the page's section "Build it: DDP from a ring and buckets". Do not
 * read lib/data-parallel/createDdpReducer.ts before solving.
 *
 * @param cluster P ranks, their gradient buffers, the communication stream
 * @param paramSizes values of each parameter, forward order
 * @param caps bucket caps in bytes
 * @returns `{gradReady, finish}`
 * @example
 * // P = 2, one parameter of 2 values, rank 0 holds [1, 2] and rank 1 [3, 6]:
 * // after r.gradReady(0) and r.finish(), both buffers hold [2, 4], sent as 2 ring steps:
 * // [{0→1, offset 1, length 1, reduce}, {1→0, offset 0, length 1, reduce}], then [{0→1, offset 0, copy}, {1→0, offset 1, copy}]
 * const r = createDdpReducer(cluster, [2], { bucketCapBytes: 8, firstBucketCapBytes: 8 });
 */
export function createDdpReducer(cluster: GradCluster, paramSizes: number[], caps: BucketCaps): DdpReducer {
  return notImplemented("5.6");
}
