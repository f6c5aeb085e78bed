import type { ModelArch } from "../memory/index.js";
import type { Cluster } from "./clusterPresets.js";
import type { Plan, Workload } from "./planLabel.js";

/**
 * The formats a plan exports to.
 * @see {@link exportPlan}
 */
export type ExportFormat = "deepspeed" | "fsdp" | "megatron" | "torchrun";

/** The FSDP sharding strategy that keeps what a ZeRO stage keeps (PyTorch's names). */
const FSDP_STRATEGY = { 0: "NO_SHARD", 2: "SHARD_GRAD_OP", 3: "FULL_SHARD" } as const;

/**
 * A plan written as the tool that would run it reads it:
 * - `deepspeed`: a DeepSpeed JSON config (`train_batch_size` = micro-batch ×
 *   accumulation × data-parallel size, `bf16`/`fp16`, `zero_optimization.stage`,
 *   `offload_optimizer`/`offload_param` to the CPU); tensor and pipeline sizes are
 *   not DeepSpeed config keys (Megatron-DeepSpeed takes them as arguments), so a plan
 *   with t or p > 1 is refused here;
 * - `fsdp`: a Hugging Face Accelerate config (YAML) for PyTorch FSDP:
 *   `fsdp_sharding_strategy` (ZeRO-0 → NO_SHARD, 2 → SHARD_GRAD_OP, 3 → FULL_SHARD; ZeRO-1
 *   has no FSDP strategy), transformer-layer auto-wrap, CPU offload of parameters,
 *   activation checkpointing (full recomputation), `mixed_precision`, machines and processes;
 * - `megatron`: Megatron-LM's `pretrain_gpt.py` arguments (model shape, t, p,
 *   micro- and global batch, precision, sequence parallelism, recomputation,
 *   FlashAttention, `--use-distributed-optimizer` for ZeRO-1); Megatron-LM has no
 *   ZeRO-2/3 or offload, so those plans are refused;
 * - `torchrun`: the launch command for one node of the cluster.
 * @param plan the plan
 * @param arch the model (Megatron's shape arguments)
 * @param cluster nodes and GPUs per node (the launch)
 * @param workload batch, sequence length and precision
 * @param format one of {@link ExportFormat}
 * @returns the text of the file or command line
 * @throws RangeError `a DeepSpeed config has no tensor or pipeline size (plan has t = 8, p = 1): export megatron`,
 *   `FSDP has no strategy for ZeRO-1 (optimizer states only): use stage 0, 2 or 3`, `Megatron-LM has no ZeRO-3 …`,
 *   `format must be deepspeed, fsdp, megatron or torchrun, got "yaml"`
 * @example JSON.parse(exportPlan(plan, arch, cluster, workload, "deepspeed")).train_batch_size // = workload.globalBatch
 * @see DeepSpeed configuration JSON docs; Hugging Face Accelerate FSDP guide (config file keys); Megatron-LM `megatron/training/arguments.py`; PyTorch torchrun docs
 */
export function exportPlan(plan: Plan, arch: ModelArch, cluster: Cluster, workload: Workload, format: ExportFormat): string {
  const { dataParallel: d, tensorParallel: t, pipelineParallel: p, microBatch: b, gradAccum: m } = plan;
  const half = workload.precision === "fp32" ? undefined : workload.precision;
  switch (format) {
    case "deepspeed": {
      if (t > 1 || p > 1) throw new RangeError(`a DeepSpeed config has no tensor or pipeline size (plan has t = ${t}, p = ${p}): export megatron`);
      const zero: Record<string, unknown> = { stage: plan.zeroStage };
      if (plan.zeroStage >= 2) Object.assign(zero, { overlap_comm: true, contiguous_gradients: true });
      if (plan.offload !== "none") zero.offload_optimizer = { device: "cpu", pin_memory: true };
      if (plan.offload === "optimizer+params") zero.offload_param = { device: "cpu", pin_memory: true };
      const config = {
        train_batch_size: b * m * d,
        train_micro_batch_size_per_gpu: b,
        gradient_accumulation_steps: m,
        ...(half === "fp16" ? { fp16: { enabled: true, loss_scale: 0, initial_scale_power: 16 } } : {}),
        ...(half === "bf16" ? { bf16: { enabled: true } } : {}),
        zero_optimization: zero,
        gradient_clipping: 1.0,
      };
      return JSON.stringify(config, null, 2) + "\n";
    }
    case "fsdp": {
      if (t > 1 || p > 1) throw new RangeError(`FSDP through Accelerate has no tensor or pipeline size (plan has t = ${t}, p = ${p}): export megatron`);
      if (plan.zeroStage === 1) throw new RangeError("FSDP has no strategy for ZeRO-1 (optimizer states only): use stage 0, 2 or 3");
      if (plan.offload === "optimizer") throw new RangeError("FSDP offloads parameters with their gradients and optimizer states (fsdp_offload_params), not the optimizer alone: use offload none or optimizer+params");
      const strategy = FSDP_STRATEGY[plan.zeroStage as 0 | 2 | 3];
      const layer = arch.decoderLayerClass ?? (arch.family === "llama" ? "LlamaDecoderLayer" : arch.family === "gpt_neox" ? "GPTNeoXLayer" : "GPT2Block");
      return [
        "compute_environment: LOCAL_MACHINE",
        "distributed_type: FSDP",
        "fsdp_config:",
        "  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP",
        `  fsdp_transformer_layer_cls_to_wrap: ${layer}`,
        `  fsdp_sharding_strategy: ${strategy}`,
        `  fsdp_offload_params: ${plan.offload === "optimizer+params"}`,
        `  fsdp_activation_checkpointing: ${plan.recompute === "full"}`,
        "  fsdp_state_dict_type: SHARDED_STATE_DICT",
        "  fsdp_use_orig_params: true",
        `mixed_precision: ${half ?? "no"}`,
        `num_machines: ${cluster.nodes}`,
        `num_processes: ${d}`,
        "machine_rank: 0",
        "",
      ].join("\n");
    }
    case "megatron": {
      if (plan.zeroStage >= 2) throw new RangeError(`Megatron-LM has no ZeRO-${plan.zeroStage} (its distributed optimizer shards the optimizer states, ZeRO-1): export deepspeed or fsdp`);
      if (plan.offload !== "none") throw new RangeError("Megatron-LM's pretrain_gpt.py has no ZeRO-Offload: export deepspeed");
      const args = [
        `--num-layers ${arch.numLayers}`, `--hidden-size ${arch.hiddenSize}`, `--num-attention-heads ${arch.numHeads}`, `--ffn-hidden-size ${arch.intermediateSize}`,
        ...(arch.numKvHeads !== arch.numHeads ? ["--group-query-attention", `--num-query-groups ${arch.numKvHeads}`] : []),
        // The block Megatron builds must be the model's: Llama-style models need these (GPT-2 style is Megatron's default).
        ...(arch.mlp === "gated" ? ["--swiglu"] : []),
        ...(arch.norm === "rmsnorm" ? ["--normalization RMSNorm"] : []),
        ...(arch.learnedPositions === 0 ? ["--position-embedding-type rope"] : []),
        ...(!arch.tiedEmbeddings ? ["--untie-embeddings-and-output-weights"] : []),
        ...(!arch.attentionBias && !arch.mlpBias ? ["--disable-bias-linear"] : []),
        `--seq-length ${workload.seqLen}`, `--max-position-embeddings ${Math.max(workload.seqLen, arch.learnedPositions)}`,
        `--tensor-model-parallel-size ${t}`, `--pipeline-model-parallel-size ${p}`,
        `--micro-batch-size ${b}`, `--global-batch-size ${b * m * d}`,
        ...(half ? [`--${half}`] : []),
        ...(plan.sequenceParallel ? ["--sequence-parallel"] : []),
        ...(plan.recompute === "selective" ? ["--recompute-granularity selective"] : []),
        ...(plan.recompute === "full" ? ["--recompute-granularity full", "--recompute-method uniform", "--recompute-num-layers 1"] : []),
        ...(plan.attention === "flash" ? ["--use-flash-attn"] : []),
        ...(plan.zeroStage === 1 ? ["--use-distributed-optimizer"] : []),
      ];
      return args.join(" \\\n  ") + "\n";
    }
    case "torchrun":
      return [
        "torchrun",
        `--nnodes ${cluster.nodes}`,
        `--nproc-per-node ${cluster.gpusPerNode}`,
        ...(cluster.nodes > 1 ? ["--node-rank $NODE_RANK", "--rdzv-backend c10d", "--rdzv-endpoint $MASTER_ADDR:29500"] : []),
        "train.py",
      ].join(" \\\n  ") + "\n";
    default:
      throw new RangeError(`format must be deepspeed, fsdp, megatron or torchrun, got ${JSON.stringify(format)}`);
  }
}
