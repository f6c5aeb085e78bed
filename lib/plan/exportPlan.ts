import type { ModelArch } from "../memory/index.js";
import type { Cluster } from "./clusterPresets.js";
import { planSizes, type Plan, type Workload } from "./planLabel.js";
import { DELAYED_SCALING_DEFAULTS as TE } from "../amp/fp8/DelayedScaling.js";

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
 *   activation checkpointing (full recomputation), `mixed_precision`, machines and processes, under a
 *   comment line with what the file cannot hold ({@link runNote}: the Trainer's batch arguments, the attention kernel);
 * - `megatron`: Megatron-LM's `pretrain_gpt.py` arguments (model shape, t, p,
 *   micro- and global batch, precision, sequence parallelism, recomputation,
 *   FlashAttention, `--use-distributed-optimizer` for ZeRO-1, and the overlaps the planner
 *   times, `--overlap-grad-reduce` and with the distributed optimizer `--overlap-param-gather`,
 *   which Megatron leaves off by default; dropout 0.0 for a model trained without it, since
 *   Megatron's default is 0.1); with context parallelism
 *   `--context-parallel-size` and `--cp-comm-type`; for a mixture of experts `--num-experts`,
 *   `--moe-router-topk`, `--moe-ffn-hidden-size` (and the shared experts), `--expert-model-parallel-size`,
 *   the all-to-all dispatcher and grouped GEMMs the planner times; multi-head latent attention's ranks;
 *   FP8 as `--fp8-format hybrid --fp8-recipe delayed` with Transformer Engine's DelayedScaling defaults (chapter 4's `DELAYED_SCALING_DEFAULTS`: amax history 1024, max),
 *   the one the memory counts (Megatron's own default history is 1); Megatron-LM has no
 *   ZeRO-2/3 or offload, so those plans are refused;
 * - `torchrun`: the launch command for one node of the cluster.
 * Context and expert parallelism are Megatron's: DeepSpeed and FSDP exports refuse them, and DeepSpeed's
 * configuration has no FP8 key (Accelerate's FSDP config writes `mixed_precision: fp8` with Transformer Engine).
 * @param plan the plan
 * @param arch the model (Megatron's shape arguments)
 * @param cluster nodes and GPUs per node (the launch)
 * @param workload batch, sequence length and precision
 * @param format one of {@link ExportFormat}
 * @returns the text of the file or command line
 * @throws RangeError `a DeepSpeed config has no tensor or pipeline size (plan has t = 8, p = 1): export megatron`,
 *   `context and expert parallelism are Megatron-LM's (plan has C = 2, ep = 1): export megatron`, `a DeepSpeed config has no FP8 switch: export megatron or fsdp`,
 *   `FSDP has no strategy for ZeRO-1 (optimizer states only): use stage 0, 2 or 3`, `Megatron-LM has no ZeRO-3 …`,
 *   `format must be deepspeed, fsdp, megatron or torchrun, got "yaml"`
 * @example JSON.parse(exportPlan(plan, arch, cluster, workload, "deepspeed")).train_batch_size // = workload.globalBatch
 * @see DeepSpeed configuration JSON docs; Hugging Face Accelerate FSDP guide (config file keys) and its low-precision (FP8) guide; Megatron-LM d98e8a6
 *   `megatron/training/arguments.py` (`--cp-comm-type`, `--num-experts`), `megatron/core/distributed/distributed_data_parallel_config.py` and
 *   `core/transformer/transformer_config.py` (the defaults; `moe_*`, `fp8_*` fields, read as `--moe-token-dispatcher-type` etc.); PyTorch torchrun docs
 */
export function exportPlan(plan: Plan, arch: ModelArch, cluster: Cluster, workload: Workload, format: ExportFormat): string {
  const { dataParallel: d, tensorParallel: t, pipelineParallel: p, microBatch: b, gradAccum: m } = plan;
  const { C, ep } = planSizes(plan);
  const half = workload.precision === "fp32" ? undefined : workload.precision;
  if ((format === "deepspeed" || format === "fsdp") && (C > 1 || ep > 1)) throw new RangeError(`context and expert parallelism are Megatron-LM's (plan has C = ${C}, ep = ${ep}): export megatron`);
  switch (format) {
    case "deepspeed": {
      if (t > 1 || p > 1) throw new RangeError(`a DeepSpeed config has no tensor or pipeline size (plan has t = ${t}, p = ${p}): export megatron`);
      if (plan.fp8) throw new RangeError("a DeepSpeed config has no FP8 switch: export megatron or fsdp");
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
      const note = runNote(plan, format);
      return [
        ...(note ? [`# ${note}`] : []),
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
        ...(plan.fp8 ? ["mixed_precision: fp8", "fp8_config:", "  backend: TE", `  fp8_format: ${TE.fp8Format}`, `  amax_history_len: ${TE.amaxHistoryLen}`, `  amax_compute_algo: ${TE.amaxComputeAlgo}`] : [`mixed_precision: ${half ?? "no"}`]),
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
        ...(arch.mla ? [
          "--multi-latent-attention", ...(arch.mla.qLoraRank ? [`--q-lora-rank ${arch.mla.qLoraRank}`] : []), `--kv-lora-rank ${arch.mla.kvLoraRank}`,
          `--qk-head-dim ${arch.mla.qkNopeHeadDim}`, `--qk-pos-emb-head-dim ${arch.mla.qkRopeHeadDim}`, `--v-head-dim ${arch.mla.vHeadDim}`,
        ] : arch.numKvHeads !== arch.numHeads ? ["--group-query-attention", `--num-query-groups ${arch.numKvHeads}`] : []),
        // The block Megatron builds must be the model's: Llama-style models need these (GPT-2 style is Megatron's default).
        ...(arch.mlp === "gated" ? ["--swiglu"] : []),
        ...(arch.norm === "rmsnorm" ? ["--normalization RMSNorm"] : []),
        ...(arch.learnedPositions === 0 ? ["--position-embedding-type rope"] : []),
        ...(!arch.tiedEmbeddings ? ["--untie-embeddings-and-output-weights"] : []),
        ...(!arch.attentionBias && !arch.mlpBias ? ["--disable-bias-linear"] : []),
        // Megatron's TransformerConfig defaults hidden and attention dropout to 0.1; the planner times GPT-2's family with dropout, the others without.
        ...(arch.family !== "gpt2" ? ["--attention-dropout 0.0", "--hidden-dropout 0.0"] : []),
        `--seq-length ${workload.seqLen}`, `--max-position-embeddings ${Math.max(workload.seqLen, arch.learnedPositions)}`,
        `--tensor-model-parallel-size ${t}`, `--pipeline-model-parallel-size ${p}`,
        `--micro-batch-size ${b}`, `--global-batch-size ${b * m * d}`,
        ...(half ? [`--${half}`] : []),
        ...(plan.sequenceParallel ? ["--sequence-parallel"] : []),
        ...(plan.recompute === "selective" ? ["--recompute-granularity selective"] : []),
        ...(plan.recompute === "full" ? ["--recompute-granularity full", "--recompute-method uniform", "--recompute-num-layers 1"] : []),
        ...(plan.attention === "flash" ? ["--use-flash-attn"] : []),
        ...(plan.zeroStage === 1 ? ["--use-distributed-optimizer"] : []),
        ...(C > 1 ? [`--context-parallel-size ${C}`, "--cp-comm-type p2p"] : []),
        ...moeArgs(arch, ep),
        ...(plan.fp8 ? [`--fp8-format ${TE.fp8Format.toLowerCase()}`, "--fp8-recipe delayed", `--fp8-amax-history-len ${TE.amaxHistoryLen}`, `--fp8-amax-compute-algo ${TE.amaxComputeAlgo}`] : []),
        // Megatron's DistributedDataParallelConfig leaves both off; the planner's step time assumes them (lib/plan stepTime).
        "--overlap-grad-reduce", ...(plan.zeroStage === 1 ? ["--overlap-param-gather"] : []),
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

/** Megatron's arguments for a model's experts: the block, the layout and the dispatcher and grouped GEMMs the planner times. */
function moeArgs(arch: ModelArch, ep: number): string[] {
  const m = arch.moe;
  if (!m || m.numMoeLayers === 0) return [];
  const dense = arch.numLayers - m.numMoeLayers; // DeepSeek-V3: the first layers keep a dense MLP
  return [
    `--num-experts ${m.numExperts}`, `--moe-router-topk ${m.topK}`, `--moe-ffn-hidden-size ${m.expertIntermediateSize}`,
    ...(m.sharedIntermediateSize ? [`--moe-shared-expert-intermediate-size ${m.sharedIntermediateSize}`] : []),
    ...(dense > 0 ? [`--moe-layer-freq "([0]*${dense}+[1]*${m.numMoeLayers})"`] : []), // Megatron's moe_freq_type pattern
    `--expert-model-parallel-size ${ep}`, "--moe-token-dispatcher-type alltoall", "--moe-grouped-gemm",
  ];
}

/**
 * What a plan needs that its exported file cannot hold, for the Hugging Face Trainer that
 * runs a DeepSpeed or FSDP plan (and for the script a torchrun line starts): the micro-batch
 * and accumulation as Trainer arguments (an accelerate config has no batch keys), gradient
 * checkpointing and the attention kernel, which are set on the model, not in the config.
 * Megatron's arguments hold all of them but the tokenizer, which sets the vocabulary (without
 * --tokenizer-type, pretrain_gpt.py takes GPT2BPETokenizer's 50,257): given the model's vocabulary
 * size, the Megatron note names it.
 * @param plan the plan
 * @param format the export format
 * @param vocabSize the model's vocabulary (for `megatron`; omitted: no note)
 * @returns one line, or ""
 * @throws nothing
 * @example runNote({ ...plan, microBatch: 2, gradAccum: 8, recompute: "full", attention: "flash" }, "fsdp")
 *   // "not in this file: --per_device_train_batch_size 2 --gradient_accumulation_steps 8 --gradient_checkpointing, and attn_implementation=\"flash_attention_2\" when loading the model"
 * @see Hugging Face transformers TrainingArguments (per_device_train_batch_size, gradient_accumulation_steps, gradient_checkpointing) and the
 *   model loading docs (attn_implementation); Megatron-LM arguments.py (--recompute-granularity selective, which the Trainer lacks)
 */
export function runNote(plan: Plan, format: ExportFormat, vocabSize?: number): string {
  if (format === "megatron") {
    return vocabSize === undefined ? "" : `not in this file: the data and tokenizer arguments (--data-path, --tokenizer-type with its model or vocabulary files), whose vocabulary must be the model's ${vocabSize.toLocaleString("en-US")} (without --tokenizer-type pretrain_gpt.py takes GPT2BPETokenizer's 50,257)`;
  }
  const args = [
    ...(format === "deepspeed" ? [] : [`--per_device_train_batch_size ${plan.microBatch}`, `--gradient_accumulation_steps ${plan.gradAccum}`]),
    // FSDP's file turns activation checkpointing on itself (fsdp_activation_checkpointing); the Trainer refuses both at once.
    ...(plan.recompute === "full" && format !== "fsdp" ? ["--gradient_checkpointing"] : []),
  ];
  const parts = [
    ...(args.length ? [args.join(" ")] : []),
    ...(plan.attention === "flash" ? ['attn_implementation="flash_attention_2" when loading the model'] : []),
    ...(plan.recompute === "selective" ? ["selective recomputation is Megatron's (--recompute-granularity selective): the Trainer has none, so this plan runs there only as none or full"] : []),
  ];
  return parts.length ? `not in this file: ${parts.join(", and ")}` : "";
}
