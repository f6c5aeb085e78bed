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
 * savings. `dataParallel × tensorParallel × pipelineParallel × contextParallel` is the GPU count
 * (Megatron-LM's world = TP·PP·CP·DP; the expert-parallel ranks are the same GPUs regrouped),
 * and `microBatch × gradAccum × dataParallel` the global batch (Megatron's and
 * DeepSpeed's rule: `train_batch_size = micro_batch × gradient_accumulation × DP size`; the
 * context-parallel ranks of a sequence share it). Under pipeline parallelism `gradAccum` is also
 * the number of micro-batches m of the schedule (1F1B). A plan without `contextParallel`,
 * `expertParallel` or `fp8` is the plan with 1, 1 and false: a 3D plan.
 * @see Narayanan et al. 2021, §3 (the (p, t, d) notation); DeepSpeed config docs (`train_batch_size`);
 *   Megatron-LM d98e8a6 `megatron/core/parallel_state.py` (`initialize_model_parallel`: model size TP·PP·CP, data-parallel size the rest)
 */
export interface Plan {
  dataParallel: number;
  tensorParallel: number;
  pipelineParallel: number;
  /** C, context-parallel ranks of one sequence (Megatron `--context-parallel-size`; default 1). */
  contextParallel?: number;
  /** ep, ranks the experts of an MoE layer are spread over (Megatron `--expert-model-parallel-size`; default 1; 1 for a dense model). */
  expertParallel?: number;
  /** The linears' GEMMs in FP8 (Transformer Engine's recipe) on top of the 16-bit workload (default false). */
  fp8?: boolean;
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
 * The sizes of a plan with their defaults: C and ep 1, and the GPU count d·t·p·C.
 * @param p the plan
 * @returns `{d, t, p, C, ep, gpus}`
 * @throws nothing
 * @example planSizes({ dataParallel: 4, tensorParallel: 2, pipelineParallel: 1, contextParallel: 2 }).gpus // 16
 * @see {@link Plan}
 */
export function planSizes(p: Pick<Plan, "dataParallel" | "tensorParallel" | "pipelineParallel" | "contextParallel" | "expertParallel">): { d: number; t: number; p: number; C: number; ep: number; gpus: number } {
  const C = p.contextParallel ?? 1, ep = p.expertParallel ?? 1;
  return { d: p.dataParallel, t: p.tensorParallel, p: p.pipelineParallel, C, ep, gpus: p.dataParallel * p.tensorParallel * p.pipelineParallel * C };
}

/**
 * A short, stable label of a plan, e.g. `dp8 tp1 pp1 zero2 b4×4 full flash`.
 * @param p the plan
 * @returns the label (context and expert parallelism appear only above 1; offload, sequence parallelism and FP8 only when on),
 *   so a 3D plan keeps its 3D label
 * @example planLabel({ dataParallel: 8, tensorParallel: 1, pipelineParallel: 1, zeroStage: 2, offload: "none", recompute: "full", sequenceParallel: false, attention: "flash", microBatch: 4, gradAccum: 4 })
 *   // "dp8 tp1 pp1 zero2 b4×4 full flash"
 * @example planLabel({ ...thatPlan, dataParallel: 4, contextParallel: 2, expertParallel: 8, zeroStage: 1, fp8: true }) // "dp4 tp1 pp1 cp2 ep8 zero1 b4×4 full flash fp8"
 * @see {@link Plan}
 */
export function planLabel(p: Plan): string {
  const C = p.contextParallel ?? 1, ep = p.expertParallel ?? 1;
  return [
    `dp${p.dataParallel} tp${p.tensorParallel} pp${p.pipelineParallel}${C > 1 ? ` cp${C}` : ""}${ep > 1 ? ` ep${ep}` : ""} zero${p.zeroStage}`,
    `b${p.microBatch}×${p.gradAccum}`,
    p.recompute === "none" ? "no-recompute" : p.recompute,
    p.attention,
    ...(p.sequenceParallel ? ["sp"] : []),
    ...(p.offload !== "none" ? [`offload-${p.offload}`] : []),
    ...(p.fp8 ? ["fp8"] : []),
  ].join(" ");
}
