import { notImplemented } from "../harness/index.js";

/** One layer of the model. */
export interface TimelineLayer {
  /** ψ, parameters of the layer (integer ≥ 0). */
  params: number;
  /** Seconds of its forward on the GPU (finite, ≥ 0); its backward takes twice that. */
  forwardS: number;
}

/** One direction of PCIe: a transfer of n bytes takes alphaS + n / bytesPerS seconds. */
export interface TimelineLink {
  /** Latency per transfer, seconds (finite, ≥ 0; default 0). */
  alphaS?: number;
  /** Bytes per second (finite, > 0). */
  bytesPerS: number;
}

/** The run. */
export interface TimelineProblem {
  /** The model's layers, layer 0 first (at least one). */
  layers: TimelineLayer[];
  /** Training steps back to back (integer ≥ 1). */
  steps: number;
  /** ZeRO-Offload's one-step delayed parameter update (default false). */
  dpu?: boolean;
  /** Host → device: the parameters. */
  h2d: TimelineLink;
  /** Device → host: the gradients. */
  d2h: TimelineLink;
  /** Adam elements per second on the CPU (finite, > 0). */
  cpuAdamElementsPerS: number;
}

/** What a task does. Its lane follows from it: forward and backward run on the GPU, grad-d2h on the device → host link, cpu-adam on the CPU, param-h2d on the host → device link. */
export type TimelineTaskKind = "forward" | "backward" | "grad-d2h" | "cpu-adam" | "param-h2d";

/** One task of the timeline: exactly these five fields. */
export interface TimelineTask {
  kind: TimelineTaskKind;
  /** 0-based step. */
  step: number;
  /** 0-based layer. */
  layer: number;
  /** Start, seconds after the first forward starts. */
  t: number;
  /** End, seconds. */
  end: number;
}

/**
 * Exercise 9.2 (build it) — the timeline of ZeRO-Offload, for layers of any sizes.
 *
 * ZeRO-Offload (Ren et al. 2021, §4): the fp16 parameters live on the GPU, which runs forward and
 * backward; the fp32 master and Adam's moments live on the CPU, which runs Adam. Return every task
 * of `steps` training steps: for each step s and layer l one forward, one backward, one grad-d2h,
 * one cpu-adam and one param-h2d (5 · steps · L tasks, any order; times within 1e-9, relative).
 *
 * Durations. Layer l's forward takes `forwardS`, its backward twice that; its gradients cross to
 * the host as fp16, 2ψ bytes (the paper's size: DeepSpeed sends fp32), in α + 2ψ/B of the d2h link;
 * Adam takes ψ / cpuAdamElementsPerS; its fp16 parameters, 2ψ bytes, come back in α + 2ψ/B of the
 * h2d link. A layer without parameters still pays each transfer's α.
 *
 * What waits for what. The backward runs layer L−1 first, after the step's forward. A layer's
 * gradients leave when its backward ends. Adam on any layer of step s waits for every gradient of
 * step s (the overflow check and the gradient clipping need them all). A layer's parameters go back
 * when its Adam ends. Without DPU the update is synchronous: step s + 1's forward starts after every
 * parameter copy of step s has ended. With DPU (Ren et al. 2021, §5.2: the forward of step s uses
 * the parameters of update s − 2, while the CPU computes update s − 1), layer l's forward in step
 * s ≥ 2 waits for layer l's copy of step s − 2 only; steps 0 and 1 use the initial parameters.
 *
 * Lanes. The GPU, the d2h link, the CPU and the h2d link each run one task at a time, in this order:
 * the GPU, forward 0 … L−1 then backward L−1 … 0, step after step; d2h, layer L−1 first; the CPU and
 * h2d, layer 0 first (the next forward needs it first), step after step. Every task starts as soon
 * as what it waits for has ended and its lane is free.
 *
 * The grader checks your tasks with the course's validity checker, then every start and end against
 * its own timeline, with and without DPU, on layers of unlike sizes, on the chapter's figure (lib's
 * simulateOffloadStep) and on 200,000 layers.
 *
 * Errors (RangeError): `layers must have at least one layer, got 0`;
 * `layers[1].params must be an integer >= 0, got -1`; `layers[0].forwardS must be a finite number >= 0, got NaN`;
 * `steps must be an integer >= 1, got 0`; `h2d.bytesPerS must be a finite number > 0, got 0` (same for
 * d2h, and `.alphaS` must be a finite number >= 0); `cpuAdamElementsPerS must be a finite number > 0, got 0`.
 * Read: the chapter's sections "The offload timeline" and "The delayed parameter update".
 *
 * @param problem layers, steps, dpu, the links, the CPU's Adam rate
 * @returns every task
 * @example offloadTimeline({ layers: [{ params: 1e9, forwardS: 1 }, { params: 5e8, forwardS: 0.5 }], steps: 2,
 *   h2d: { bytesPerS: 2e9 }, d2h: { bytesPerS: 2e9 }, cpuAdamElementsPerS: 1e9 })
 * // step 0: forward 0 [0, 1], forward 1 [1, 1.5], backward 1 [1.5, 2.5], grad-d2h 1 [2.5, 3], backward 0 [2.5, 4.5],
 * //   grad-d2h 0 [4.5, 5.5], cpu-adam 0 [5.5, 6.5], cpu-adam 1 [6.5, 7], param-h2d 0 [6.5, 7.5], param-h2d 1 [7.5, 8];
 * // step 1: the same 8 s later (forward 0 [8, 9] … param-h2d 1 [15.5, 16]).
 * // With dpu: true, step 1's forward 0 runs [4.5, 5.5] and its last task, param-h2d 1, ends at 12.5.
 */
export function offloadTimeline(problem: TimelineProblem): TimelineTask[] {
  return notImplemented("9.2");
}
