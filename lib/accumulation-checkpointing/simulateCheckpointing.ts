/**
 * The memory and compute of activation checkpointing for a given
 * segmentation, as a pure simulator over per-layer costs.
 */
import { checkSegments } from "./segments.js";

/**
 * What one layer costs, for `rows` rows in some format.
 * @see the sources of {@link simulateCheckpointing}: Chen et al. 2016, §4 (√n: §4.3); PyTorch `torch.utils.checkpoint.checkpoint_sequential`
 */
export interface LayerCost {
  /** Bytes of the layer's input (what a checkpoint at this layer stores). */
  inputBytes: number;
  /** Bytes the layer saves for its backward, INCLUDING its input. */
  savedBytes: number;
  /** Forward FLOPs of the layer. */
  flops: number;
}

/**
 * One step of the schedule, with the activation bytes alive after it.
 * @see the sources of {@link simulateCheckpointing}: Chen et al. 2016, §4 (√n: §4.3); PyTorch `torch.utils.checkpoint.checkpoint_sequential`
 */
export interface CheckpointEvent {
  t: number;
  rank: number;
  kind: "forward" | "recompute" | "backward";
  layer: number;
  /** Activation bytes alive after this step. */
  bytes: number;
}

/**
 * What {@link simulateCheckpointing} returns.
 * @see the sources of {@link simulateCheckpointing}: Chen et al. 2016, §4 (√n: §4.3); PyTorch `torch.utils.checkpoint.checkpoint_sequential`
 */
export interface CheckpointSimulation {
  result: {
    /** Largest number of activation bytes alive at once. */
    peakBytes: number;
    /** FLOPs spent re-running forward in backward. */
    recomputeFlops: number;
    /** FLOPs of one forward pass. */
    forwardFlops: number;
    /** Bytes of segment inputs kept through forward (checkpointed segments only). */
    checkpointBytes: number;
  };
  events: CheckpointEvent[];
}

/**
 * Simulates one training step with the layers cut into `segments`: every
 * segment but the last is checkpointed (as `torch.utils.checkpoint.checkpoint_sequential`):
 * its forward keeps only its input; in backward it is re-run (saving its
 * activations) and then backpropagated. The last segment runs normally.
 *
 * Convention: counts the tensors kept for backward (not transient
 * workspace, not gradients of activations, not the logits). A layer's saved
 * tensors are freed as soon as its backward has run.
 *
 * Peak = max( Σ_{checkpointed j} in_j + Σ_{last} saved,  max_k [ Σ_{j<k} in_j + Σ_{layers of k} saved ] ).
 *
 * @param costs per-layer costs, layer order
 * @param segments positive lengths summing to costs.length ([n]: no checkpointing)
 * @returns peak bytes, recompute FLOPs, and the event timeline (F, R, B per layer)
 * @throws {RangeError} `segments must be positive integers summing to numLayers = …`
 * @example
 * const c = { inputBytes: 1, savedBytes: 2, flops: 10 };
 * simulateCheckpointing([c, c, c, c], [4]).result;    // { peakBytes: 8, recomputeFlops: 0, … }
 * simulateCheckpointing([c, c, c, c], [2, 2]).result; // { peakBytes: 5, recomputeFlops: 20, … }
 * @see Chen et al. 2016, §4 (√n: §4.3); PyTorch `torch.utils.checkpoint.checkpoint_sequential`
 */
export function simulateCheckpointing(costs: readonly LayerCost[], segments: readonly number[]): CheckpointSimulation {
  checkSegments(costs.length, segments);
  const starts: number[] = [];
  segments.reduce((s, len) => { starts.push(s); return s + len; }, 0);
  const last = segments.length - 1;
  const events: CheckpointEvent[] = [];
  let live = 0, peak = 0, t = 0, recomputeFlops = 0, checkpointBytes = 0;
  const emit = (kind: CheckpointEvent["kind"], layer: number) => { peak = Math.max(peak, live); events.push({ t: t++, rank: 0, kind, layer, bytes: live }); };
  // forward
  segments.forEach((len, k) => {
    for (let i = starts[k]; i < starts[k] + len; i++) {
      if (k === last) live += costs[i].savedBytes;
      else if (i === starts[k]) { live += costs[i].inputBytes; checkpointBytes += costs[i].inputBytes; }
      emit("forward", i);
    }
  });
  // backward, last segment first
  for (let k = last; k >= 0; k--) {
    const s = starts[k], e = s + segments[k];
    if (k !== last) {
      for (let i = s; i < e; i++) {
        live += costs[i].savedBytes - (i === s ? costs[i].inputBytes : 0); // the checkpoint is the first layer's input
        recomputeFlops += costs[i].flops;
        emit("recompute", i);
      }
    }
    for (let i = e - 1; i >= s; i--) { live -= costs[i].savedBytes; emit("backward", i); }
  }
  const forwardFlops = costs.reduce((s, c) => s + c.flops, 0);
  return { result: { peakBytes: peak, recomputeFlops, forwardFlops, checkpointBytes }, events };
}

/**
 * The schedule of a checkpointed step as labels: "F3" forward of layer 3,
 * "R3" its recomputation in backward, "B3" its backward.
 *
 * @param numLayers n
 * @param segments positive lengths summing to n; all but the last are checkpointed
 * @returns 2n + (layers in checkpointed segments) labels
 * @throws {RangeError} as {@link checkSegments}
 * @example
 * recomputeSchedule(4, [2, 2]); // ["F0","F1","F2","F3","B3","B2","R0","R1","B1","B0"]
 * @see `torch.utils.checkpoint.checkpoint_sequential` docs (every segment but the last is re-run in backward); Chen et al. 2016, §4;
 *   the page's section "Activation checkpointing" (src/accumulation-checkpointing.md)
 */
export function recomputeSchedule(numLayers: number, segments: readonly number[]): string[] {
  checkSegments(numLayers, segments);
  const unit = { inputBytes: 0, savedBytes: 0, flops: 0 };
  return simulateCheckpointing(new Array(numLayers).fill(unit), segments).events.map((e) => `${e.kind[0].toUpperCase()}${e.layer}`);
}
