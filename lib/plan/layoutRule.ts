import type { ModelArch } from "../memory/index.js";
import type { Cluster } from "./clusterPresets.js";
import { planSizes, type Plan, type Workload } from "./planLabel.js";

/**
 * The rules Megatron-LM (and Transformer Engine) enforce on the dimensions beyond three, or
 * `undefined` when the plan keeps them all. In this order:
 * 1. the world size: d·t·p·C equals the cluster's GPUs (`initialize_model_parallel`: the model size is
 *    TP·PP·CP and the data-parallel size the rest) →
 *    `the layout uses 32 GPUs (d·t·p·C = 4·2·2·2), the cluster has 64 (Megatron-LM: world = TP·PP·CP·DP)`;
 * 2. context parallelism (C > 1): the sequence a multiple of 2·C (the load-balanced split) →
 *    `seqLen (100) must be a multiple of 2·C = 8 for context parallelism (Megatron-LM's load-balanced split)`; fused attention
 *    (Transformer Engine's ring runs FlashAttention-style blocks) → `context parallelism needs fused attention (flash), not eager`;
 * 3. expert parallelism (ep > 1): a mixture of experts → `expert parallelism needs a mixture of experts (model_type "llama" has none)`;
 *    ep divides the experts → `--expert-model-parallel-size (3) must divide the experts (8)`; the expert grid fills the world,
 *    world divisible by ETP·EP·PP (ETP = t, Megatron's default), i.e. ep divides d·C →
 *    `world_size (64) is not divisible by expert_tensor_model_pipeline_parallel size (ETP·EP·PP = 128)`;
 * 4. context or expert parallelism run on Megatron-LM, whose data parallelism is its DDP (ZeRO-0) or
 *    distributed optimizer (ZeRO-1), without offload (DeepSpeed-Ulysses and DeepSpeed-MoE are not modelled) →
 *    `context and expert parallelism run on Megatron-LM: ZeRO stage 0 or 1 (its distributed optimizer), no offload`;
 * 5. an MoE model with t > 1 needs sequence parallelism (Megatron's MoE layer raises during training otherwise) →
 *    `Megatron-LM refuses an MoE layer with tensor parallelism but no sequence parallelism`;
 * 6. FP8 needs FP8 tensor cores and a 16-bit workload → `FP8 needs FP8 tensor cores: the NVIDIA A100 80GB (SXM) has none`,
 *    `FP8 GEMMs run inside a 16-bit (bf16 or fp16) workload, not fp32`.
 * A 3D plan (C = ep = 1, no FP8) on the cluster's GPUs keeps them all.
 * @param plan the plan
 * @param arch the model (its experts)
 * @param cluster GPUs and the GPU type
 * @param workload sequence length and precision
 * @returns the first rule broken, or undefined
 * @throws nothing
 * @example layoutRule({ ...plan, contextParallel: 4, attention: "eager" }, llama, cluster, workload) // "context parallelism needs fused attention (flash), not eager"
 * @see Megatron-LM d98e8a6: `megatron/core/parallel_state.py` (`initialize_model_parallel`: model_size = TP·PP·CP; the expert grid's
 *   `world_size % expert_tensor_model_pipeline_parallel_size`; `expert_tensor_parallel_size` defaults to TP), `megatron/training/arguments.py`
 *   ("seq-length should be a multiple of 2 * context-parallel-size"; "Number of experts should be a multiple of expert model parallel_size"),
 *   `megatron/core/transformer/moe/moe_layer.py` (tensor parallelism without sequence parallelism raises during training);
 *   Transformer Engine d0067d0 (`transformer_engine/pytorch/attention`: context parallelism inside the fused attention)
 */
export function layoutRule(plan: Plan, arch: ModelArch, cluster: Pick<Cluster, "gpu" | "gpusPerNode" | "nodes">, workload: Pick<Workload, "seqLen" | "precision">): string | undefined {
  const { d, t, p, C, ep, gpus } = planSizes(plan);
  const world = cluster.gpusPerNode * cluster.nodes;
  if (gpus !== world) return `the layout uses ${gpus} GPUs (d·t·p·C = ${d}·${t}·${p}·${C}), the cluster has ${world} (Megatron-LM: world = TP·PP·CP·DP)`;
  if (C > 1) {
    if (workload.seqLen % (2 * C) !== 0) return `seqLen (${workload.seqLen}) must be a multiple of 2·C = ${2 * C} for context parallelism (Megatron-LM's load-balanced split)`;
    if (plan.attention !== "flash") return `context parallelism needs fused attention (flash), not ${plan.attention}`;
  }
  const E = arch.moe && arch.moe.numMoeLayers > 0 ? arch.moe.numExperts : 0;
  if (ep > 1) {
    if (E === 0) return `expert parallelism needs a mixture of experts (model_type ${JSON.stringify(arch.modelType)} has none)`;
    if (E % ep !== 0) return `--expert-model-parallel-size (${ep}) must divide the experts (${E})`;
    if ((d * C) % ep !== 0) return `world_size (${world}) is not divisible by expert_tensor_model_pipeline_parallel size (ETP·EP·PP = ${t * ep * p})`;
  }
  if ((C > 1 || ep > 1) && (plan.zeroStage > 1 || plan.offload !== "none")) return "context and expert parallelism run on Megatron-LM: ZeRO stage 0 or 1 (its distributed optimizer), no offload";
  if (E > 0 && t > 1 && !plan.sequenceParallel) return "Megatron-LM refuses an MoE layer with tensor parallelism but no sequence parallelism";
  if (plan.fp8) {
    if (!cluster.gpu.peakFlops.fp8) return `FP8 needs FP8 tensor cores: the ${cluster.gpu.name} has none`;
    if (workload.precision === "fp32") return "FP8 GEMMs run inside a 16-bit (bf16 or fp16) workload, not fp32";
  }
  return undefined;
}
