/**
 * The keys DeepSpeed reads from its JSON config, as its source reads them at
 * a pinned commit: which ones the course models, which it reads and reports
 * as "not modelled", the legacy spellings DeepSpeed still accepts, and the
 * blocks whose pydantic models refuse unknown keys.
 */

/**
 * The DeepSpeed source the rules below follow.
 * @example DEEPSPEED_SOURCE.commit // "edaa722"
 * @see https://github.com/deepspeedai/DeepSpeed/tree/edaa7221267243c7be7fb49c5d5f5c4fb97b4641 (v0.19.5 + 27 commits, 2026-08-22)
 */
export const DEEPSPEED_SOURCE = { commit: "edaa722", release: "v0.19.5-27-gedaa72212", date: "2026-08-22" } as const;

/**
 * Top-level keys DeepSpeed reads that the course does not model, with what
 * they do. DeepSpeed's `DeepSpeedConfig._initialize_params` reads the top
 * level with `get_scalar_param` / `dict.get` and never checks for unknown
 * keys: a misspelt top-level key is silently ignored.
 * @example NOT_MODELLED_KEYS.activation_checkpointing.startsWith("DeepSpeed's activation checkpointing") // true
 * @see deepspeed/runtime/config.py `DeepSpeedConfig._initialize_params` and deepspeed/runtime/constants.py at {@link DEEPSPEED_SOURCE}
 */
export const NOT_MODELLED_KEYS: Readonly<Record<string, string>> = {
  activation_checkpointing: "DeepSpeed's activation checkpointing (partition_activations, cpu_checkpointing, …); the estimate's recomputation is --recompute",
  sparse_attention: "block-sparse attention layouts (a DeepSpeed kernel)",
  flops_profiler: "the FLOPs profiler",
  wall_clock_breakdown: "timing logs", memory_breakdown: "memory logs", steps_per_print: "logging interval", dump_state: "debug dump",
  tensorboard: "TensorBoard logging", wandb: "Weights & Biases logging", csv_monitor: "CSV logging", comet: "Comet logging", comms_logger: "communication logging",
  prescale_gradients: "gradient scaling before the all-reduce",
  gradient_predivide_factor: "gradient scaling before the all-reduce", gradient_allreduce_op: "mean or sum of the gradient reduction",
  communication_data_type: "dtype of the gradient all-reduce", seq_parallel_communication_data_type: "dtype of sequence-parallel communication",
  sparse_gradients: "sparse embedding gradients", disable_allgather: "legacy all-gather switch", zero_allow_untested_optimizer: "allows a client optimizer with ZeRO",
  zero_force_ds_cpu_optimizer: "requires DeepSpeed's CPU optimizer with offload", amp: "NVIDIA apex AMP (not with ZeRO)", torch_autocast: "torch.autocast inside DeepSpeed",
  compression_training: "compression (quantization, pruning) while training", quantize_training: "MoQ quantization", eigenvalue: "eigenvalue-based MoQ",
  progressive_layer_drop: "progressive layer dropping", curriculum_learning: "legacy curriculum learning", data_efficiency: "data sampling and routing",
  checkpoint: "checkpoint options", data_types: "gradient-accumulation and parameter dtypes", dataloader_drop_last: "DeepSpeed's data loader",
  autotuning: "the autotuner", elasticity: "elastic batch sizes (overrides the batch keys)", nebula: "Nebula checkpointing", datastates_ckpt: "DataStates checkpointing",
  weight_quantization: "inference weight quantization", compile: "torch.compile and DeepCompile", timers: "throughput timers",
  tensor_parallel: "DeepSpeed AutoTP (tensor parallelism)", expert_parallel: "DeepSpeed AutoEP (expert parallelism)", use_data_before_expert_parallelism: "process-group order for MoE",
  hybrid_engine: "the RLHF hybrid engine", pipeline: "pipeline-engine options", graph_harvesting: "CUDA graph capture", log_level: "log level",
  managed_gradient_accumulation: "gradient accumulation managed by DeepSpeed", vocabulary_size: "a tensor-core alignment warning", sequence_parallel_size: "Ulysses sequence parallelism (divides the world size)",
};

/**
 * The top-level keys the course models (each typed and checked).
 * @example MODELLED_KEYS.includes("zero_optimization") // true
 * @see {@link NOT_MODELLED_KEYS}
 */
export const MODELLED_KEYS: readonly string[] = [
  "train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps", "gradient_clipping", "fp16", "bf16", "bfloat16",
  "zero_optimization", "optimizer", "scheduler", "aio",
];

/**
 * Keys of `zero_optimization` that the course models; the other fields of
 * `DeepSpeedZeroConfig` are read and reported as not modelled. Each aliased
 * field is accepted under both names (`populate_by_name=True`), e.g.
 * `stage3_prefetch_bucket_size` or `prefetch_bucket_size`.
 * @example ZERO_ALIASES.prefetch_bucket_size // "stage3_prefetch_bucket_size"
 * @see deepspeed/runtime/zero/config.py `DeepSpeedZeroConfig` (fields and `alias=`) at {@link DEEPSPEED_SOURCE}
 */
export const ZERO_ALIASES: Readonly<Record<string, string>> = {
  prefetch_bucket_size: "stage3_prefetch_bucket_size", param_persistence_threshold: "stage3_param_persistence_threshold",
  model_persistence_threshold: "stage3_model_persistence_threshold", max_live_parameters: "stage3_max_live_parameters",
  max_reuse_distance: "stage3_max_reuse_distance", gather_16bit_weights_on_model_save: "stage3_gather_16bit_weights_on_model_save",
  module_granularity_threshold: "stage3_module_granularity_threshold", use_all_reduce_for_fetch_params: "stage3_use_all_reduce_for_fetch_params",
  allgather_sequential: "stage3_allgather_sequential",
};

/**
 * Fields of `DeepSpeedZeroConfig` the course reads without modelling, with their kind.
 * @example ZERO_NOT_MODELLED.zero_quantized_weights // "bool"
 * @see deepspeed/runtime/zero/config.py at {@link DEEPSPEED_SOURCE}
 */
export const ZERO_NOT_MODELLED: Readonly<Record<string, "bool" | "int" | "object">> = {
  use_multi_rank_bucket_allreduce: "bool", load_from_fp32_weights: "bool", elastic_checkpoint: "bool", zenflow: "object", sub_group_size: "int",
  stage3_model_persistence_threshold: "int", stage3_max_reuse_distance: "int", stage3_gather_16bit_weights_on_model_save: "bool",
  stage3_module_granularity_threshold: "int", stage3_use_all_reduce_for_fetch_params: "bool", stage3_allgather_sequential: "bool",
  ignore_unused_parameters: "bool", legacy_stage1: "bool", round_robin_gradients: "bool", zero_hpz_partition_size: "int",
  zero_quantized_weights: "bool", zero_quantized_nontrainable_weights: "bool", zero_quantized_gradients: "bool", zeropp_loco_param: "object",
  mics_shard_size: "int", mics_hierarchical_params_gather: "bool", memory_efficient_linear: "bool", pipeline_loading_checkpoint: "bool",
  override_module_apply: "bool", log_trace_cache_warnings: "bool", enable_sanity_checks: "bool", save_muon_momentum_buffer_in_memory: "bool", leaf_module: "object",
};

/** A deprecated key DeepSpeed still accepts, and what it becomes. */
export interface LegacyKey {
  /** Where it lives: "" (top level) or "zero_optimization". */
  block: "" | "zero_optimization";
  /** The key that replaces it. */
  replacement: string;
  /** What DeepSpeed does with it. */
  effect: string;
}

/**
 * Legacy spellings DeepSpeed still accepts, with their deprecation status.
 * `bfloat16` is read only when `bf16` is absent, without a warning
 * (`get_bfloat16_config`). The zero_optimization ones are pydantic fields
 * marked `deprecated`: DeepSpeed logs "Config parameter X is deprecated use Y
 * instead", sets Y from X, and asserts that X and Y are not both given.
 * `zero_optimization: true/false` (a boolean instead of a block) is the
 * pre-stage format: stage 1 (or 0), with `allgather_size` as the bucket.
 * @example LEGACY_KEYS.cpu_offload.replacement // "offload_optimizer"
 * @see deepspeed/runtime/precision_config.py (BFLOAT16_OLD), deepspeed/runtime/zero/config.py (`json_schema_extra={"deprecated": True, …}`,
 *   read_zero_config_deprecated), deepspeed/runtime/config_utils.py `_process_deprecated_field` at {@link DEEPSPEED_SOURCE}
 */
export const LEGACY_KEYS: Readonly<Record<string, LegacyKey>> = {
  bfloat16: { block: "", replacement: "bf16", effect: "read as bf16 when bf16 is absent (no warning; bf16 wins when both are given)" },
  cpu_offload: { block: "zero_optimization", replacement: "offload_optimizer", effect: "true → offload_optimizer {device: cpu}" },
  cpu_offload_param: { block: "zero_optimization", replacement: "offload_param", effect: "true → offload_param {device: cpu}" },
  cpu_offload_use_pin_memory: { block: "zero_optimization", replacement: "offload_param or offload_optimizer pin_memory", effect: "a warning only: it sets nothing (deprecated, set_new_param False)" },
  stage3_gather_fp16_weights_on_model_save: { block: "zero_optimization", replacement: "stage3_gather_16bit_weights_on_model_save", effect: "copied to gather_16bit_weights_on_model_save" },
};
