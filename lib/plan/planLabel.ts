import type { Attention, OptimizerName, Offload, Precision, Recompute, ZeroStage } from "../memory/index.js";

/**
 * What is trained, and how much of it per step.
 * @see {@link Plan}; the global-batch bookkeeping of chapter 7 (global batch = micro-batch × accumulation × data-parallel size)
 */
export interface Workload {
  /** Sequences per optimizer step, all GPUs together. */
  globalBatch: number;
  /** Tokens per sequence. */
  seqLen: number;
  precision: Precision;
  optimizer: OptimizerName;
}

/**
 * One way to run a workload on a cluster: the parallel layout and the memory
 * savings. `dataParallel × tensorParallel × pipelineParallel` is the GPU count,
 * and `microBatch × gradAccum × dataParallel` the global batch (Megatron's and
 * DeepSpeed's rule: `train_batch_size = micro_batch × gradient_accumulation × DP size`).
 * Under pipeline parallelism `gradAccum` is also the number of micro-batches m of the schedule (1F1B).
 * @see Narayanan et al. 2021, §3 (the (p, t, d) notation); DeepSpeed config docs (`train_batch_size`)
 */
export interface Plan {
  dataParallel: number;
  tensorParallel: number;
  pipelineParallel: number;
  zeroStage: ZeroStage;
  offload: Offload;
  recompute: Recompute;
  sequenceParallel: boolean;
  attention: Attention;
  /** b: sequences per GPU per micro-batch. */
  microBatch: number;
  /** Micro-batches per optimizer step per data-parallel rank (m under pipeline parallelism). */
  gradAccum: number;
}

/**
 * A short, stable label of a plan, e.g. `dp8 tp1 pp1 zero2 b4×4 full flash`.
 * @param p the plan
 * @returns the label (offload and sequence parallelism appear only when on)
 * @example planLabel({ dataParallel: 8, tensorParallel: 1, pipelineParallel: 1, zeroStage: 2, offload: "none", recompute: "full", sequenceParallel: false, attention: "flash", microBatch: 4, gradAccum: 4 })
 *   // "dp8 tp1 pp1 zero2 b4×4 full flash"
 * @see {@link Plan}
 */
export function planLabel(p: Plan): string {
  return [
    `dp${p.dataParallel} tp${p.tensorParallel} pp${p.pipelineParallel} zero${p.zeroStage}`,
    `b${p.microBatch}×${p.gradAccum}`,
    p.recompute === "none" ? "no-recompute" : p.recompute,
    p.attention,
    ...(p.sequenceParallel ? ["sp"] : []),
    ...(p.offload !== "none" ? [`offload-${p.offload}`] : []),
  ].join(" ");
}
