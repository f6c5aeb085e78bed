import { notImplemented } from "../harness/index.js";

/**
 * Exercise 3.3 — the order of work in a checkpointed training step.
 *
 * The n layers are cut into consecutive segments (`segments` lists their
 * lengths). As in `torch.utils.checkpoint.checkpoint_sequential`, every
 * segment but the LAST is checkpointed: forward keeps only its input. Return
 * the order in which layers run, as labels:
 * - "F<i>": forward of layer i (every layer once, in order 0 … n−1);
 * - "B<i>": backward of layer i;
 * - "R<i>": recomputation of layer i's forward during backward.
 * Backward goes from the last segment to the first. The last segment has its
 * activations and is backpropagated directly (last layer first). Each earlier
 * segment is first recomputed (its layers in forward order), then
 * backpropagated (its layers in reverse order).
 *
 * Throw a RangeError if numLayers is not an integer >= 1 or the segments are
 * not positive integers summing to numLayers.
 * Read: the chapter's "Activation checkpointing" section; Chen et al. 2016, §4.
 *
 * @param numLayers n
 * @param segments segment lengths, in layer order
 * @returns the labels, 2n + (layers in checkpointed segments) of them
 * @example recomputeSchedule(4, [2, 2]) // ["F0","F1","F2","F3","B3","B2","R0","R1","B1","B0"]
 */
export function recomputeSchedule(numLayers: number, segments: number[]): string[] {
  return notImplemented("3.3");
}
