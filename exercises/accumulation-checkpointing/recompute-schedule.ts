import { notImplemented } from "../harness/index.js";

/**
 * Exercise 3.3 — the order of work in a checkpointed training step.
 *
 * What: the n layers of a sequential model are cut into consecutive segments
 * (`segments` lists their lengths) and run as PyTorch's `checkpoint_sequential`
 * runs them: every segment but the LAST is checkpointed. Return, in order,
 * every piece of layer work that one training step (one forward, one backward)
 * performs, as labels:
 * - "F<i>": the forward of layer i during the forward pass;
 * - "R<i>": a forward of layer i re-run during the backward pass (recomputation);
 * - "B<i>": the backward of layer i.
 * When a checkpointed segment is re-run, and in which order work happens, is
 * what the chapter's section "Activation checkpointing" derives (its table
 * prints the schedule of the segmentation you type).
 *
 * Shapes: numLayers = n >= 1, segments sum to n; returns a new array of labels.
 * Errors: RangeError if numLayers is not an integer >= 1 or the segments are
 * not positive integers summing to numLayers.
 * Source: PyTorch `torch.utils.checkpoint.checkpoint_sequential`; Chen et al. 2016, §4.
 *
 * @param numLayers n
 * @param segments segment lengths, in layer order
 * @returns the labels, in the order the work runs
 * @example recomputeSchedule(4, [2, 2]) // ["F0","F1","F2","F3","B3","B2","R0","R1","B1","B0"]
 */
export function recomputeSchedule(numLayers: number, segments: number[]): string[] {
  return notImplemented("3.3");
}
