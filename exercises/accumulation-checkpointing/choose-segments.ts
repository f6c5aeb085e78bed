import { notImplemented } from "../harness/index.js";

/** What one layer costs in a training step. */
export interface LayerCost {
  /** Bytes of the layer's input (what a checkpoint at this layer keeps). */
  inputBytes: number;
  /** Bytes the layer saves for its backward, INCLUDING its input. */
  savedBytes: number;
  /** Forward FLOPs of the layer. */
  flops: number;
}

/**
 * Exercise 3.2 — choose checkpoint segments under a memory limit.
 *
 * Cut the n layers into consecutive segments (return their lengths). Every
 * segment but the last is checkpointed (forward keeps only its first layer's
 * input; backward re-runs it), the last runs normally. With in_j, saved_j
 * the costs of the layers:
 * - peak activation bytes = the larger of
 *   (a) end of forward: Σ over checkpointed segments of in(first layer) + Σ saved of the last segment's layers;
 *   (b) for each checkpointed segment k, while it is recomputed: Σ in(first layer) of the
 *       checkpointed segments before k + Σ saved of k's layers (k's own checkpoint is its first layer's input);
 * - recompute FLOPs = Σ flops of the layers of checkpointed segments.
 * Return a segmentation whose peak is <= memoryLimitBytes with the LEAST
 * recompute FLOPs (any one if several tie).
 * Errors (RangeError): no segmentation fits: the message contains "fits";
 * memoryLimitBytes is not a number >= 0 (negative, NaN, a string): the message
 * contains "memoryLimitBytes". Infinity is a valid budget (everything fits).
 * n goes up to 2,000 layers (a deep model's blocks split into their ops):
 * the 2^(n−1) segmentations cannot all be tried, so find the structure of
 * the problem; the whole exercise has the usual 10 s.
 * Read: the chapter's "How many segments?" section; Chen et al. 2016, §4.
 *
 * @param costs per-layer costs in layer order (1 to 2,000 layers)
 * @param memoryLimitBytes the activation budget
 * @returns segment lengths summing to costs.length
 * @example
 * const c = { inputBytes: 1, savedBytes: 2, flops: 10 };
 * chooseSegments([c, c, c, c], 5) // [2, 2]: peak 5, 20 FLOPs recomputed
 */
export function chooseSegments(costs: LayerCost[], memoryLimitBytes: number): number[] {
  return notImplemented("3.2");
}
