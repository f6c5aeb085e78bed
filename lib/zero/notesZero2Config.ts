/**
 * The ZeRO-2 DeepSpeed config of study note 004 (`ds_zero2_no_offload.json`)
 * and the Trainer arguments of its run, as data.
 */
import type { HfTrainerArgs } from "./parseDeepSpeedConfig.js";

/**
 * The note's ZeRO-2 config, key for key (the note prints it with typographic
 * quotes, which JSON does not accept; `configs/ds_zero2_no_offload.json` is the same text as a file).
 * @example NOTES_ZERO2_CONFIG.zero_optimization.reduce_bucket_size // 100000000
 * @see the course's notes page (note 004, "以下是zero-2的配置文件"); DeepSpeed docs "DeepSpeed Configuration JSON"
 */
export const NOTES_ZERO2_CONFIG = {
  fp16: { enabled: "auto", loss_scale: 0, loss_scale_window: 100, initial_scale_power: 16, hysteresis: 2, min_loss_scale: 1e-10 },
  zero_optimization: { stage: 2, allgather_partitions: true, allgather_bucket_size: 1e8, overlap_comm: true, reduce_scatter: true, reduce_bucket_size: 1e8, contiguous_gradients: true },
  gradient_accumulation_steps: "auto",
  gradient_clipping: "auto",
  steps_per_print: 2000,
  train_batch_size: "auto",
  train_micro_batch_size_per_gpu: "auto",
  wall_clock_breakdown: false,
} as const;

/**
 * The note's Trainer arguments (`torchrun --nproc_per_node 8 … --per_device_train_batch_size 8
 * --gradient_accumulation_steps 8 --fp16 --learning_rate 2e-5 --weight_decay 0.01`), Llama-2-13B's hidden_size 5120.
 * @example NOTES_TRAINER_ARGS.world_size // 8
 * @see the course's notes page (note 004, the launch command); Llama-2-13b-hf config.json (hidden_size 5120)
 */
export const NOTES_TRAINER_ARGS: Readonly<HfTrainerArgs> = Object.freeze({ world_size: 8, per_device_train_batch_size: 8, gradient_accumulation_steps: 8, fp16: true, learning_rate: 2e-5, weight_decay: 0.01, hidden_size: 5120 });
