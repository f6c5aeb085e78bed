import { notImplemented } from "../harness/index.js";

/** A model, as the search needs it (lib/memory's `ModelArch`, trimmed to what matters here). */
export interface ArchView { numHeads: number; numKvHeads: number; numLayers: number }

/** One way to run the workload (the fields of lib/plan's `Plan`). */
export interface PlanView {
  dataParallel: number; tensorParallel: number; pipelineParallel: number;
  zeroStage: 0 | 1 | 2 | 3; offload: "none" | "optimizer" | "optimizer+params";
  recompute: "none" | "selective" | "full"; sequenceParallel: boolean; attention: "eager" | "flash";
  microBatch: number; gradAccum: number;
}

/** What the search may choose (every list given). */
export interface SpaceView {
  zeroStages: (0 | 1 | 2 | 3)[]; offloads: ("none" | "optimizer" | "optimizer+params")[];
  recomputes: ("none" | "selective" | "full")[]; attentions: ("eager" | "flash")[];
  sequenceParallel: boolean[]; microBatches: number[];
}

/**
 * Exercise 12.4 (build it) — the planner's search space.
 *
 * Return every well-formed plan for this model on `gpusPerNode × nodes` GPUs (all used) with
 * `globalBatch` sequences per step, choosing from `space`:
 * - tensor-parallel size t: a divisor of gpusPerNode (t stays inside a node) that Megatron-LM
 *   accepts (chapter 6's rule, here reduced to heads): t divides the query heads, and the KV heads
 *   are a multiple or a divisor of t (since Megatron commit f7dfb99; before it, t had to divide
 *   them); pipeline size p: a divisor of the layers; t·p divides the GPU count and the
 *   data-parallel size is d = GPUs / (t·p);
 * - micro-batch b from space.microBatches with b·d dividing globalBatch; gradAccum = globalBatch / (b·d);
 * - optimizer offload only with ZeRO stage ≥ 1; "optimizer+params" only with stage 3 (DeepSpeed's rules);
 * - sequence parallelism only with t > 1;
 * - no "selective" recomputation together with "flash" attention when "none" is also in the space
 *   (FlashAttention recomputes the attention core itself: that plan is the "none" one).
 * Plans that do not fit in memory are kept (judging them is the planner's job, not yours). Order
 * does not matter; every plan once; new objects.
 *
 * The grader plugs your function into the course's planner (lib/plan's search) and compares
 * the plans it finds, the best plan and the ranking with the reference.
 *
 * Read: the chapter's "The search" section.
 *
 * @param arch { numHeads, numKvHeads, numLayers }
 * @param cluster { gpusPerNode, nodes }
 * @param globalBatch sequences per optimizer step
 * @param space the choices (see {@link SpaceView})
 * @returns the plans
 * @example enumeratePlans({ numHeads: 4, numKvHeads: 4, numLayers: 4 }, { gpusPerNode: 8, nodes: 1 }, 16, { zeroStages: [1], offloads: ["none"], recomputes: ["none"], attentions: ["flash"], sequenceParallel: [false], microBatches: [1, 2] }).length
 *   // 16: (t, p) ∈ {(1,1), (1,2), (1,4), (2,1), (2,2), (2,4), (4,1), (4,2)}, each with b = 1 and b = 2
 */
export function enumeratePlans(arch: ArchView, cluster: { gpusPerNode: number; nodes: number }, globalBatch: number, space: SpaceView): PlanView[] {
  return notImplemented("12.4");
}
