/**
 * zod schemas of the DeepSpeed config blocks the course models, with
 * pydantic's lax coercions (DeepSpeed's models are not strict: "true" is a
 * boolean, 5e8 and "500000000" are integers) and its `extra="forbid"`:
 * an unknown key inside zero_optimization, offload_*, bf16 or a monitor
 * block is an error, as DeepSpeed raises it.
 */
import { z } from "zod";
import { ZERO_DEFAULTS } from "./validateZeroOptions.js";

const TRUE = ["1", "on", "t", "true", "y", "yes"], FALSE = ["0", "off", "f", "false", "n", "no"];

/** pydantic v2's lax bool: true/false, 0/1, and the strings yes/no, on/off, t/f, y/n, 1/0, true/false in any case. */
export const laxBool = z.preprocess((v) => {
  if (v === 0 || v === 1) return v === 1;
  if (typeof v === "string") {
    const s = v.toLowerCase();
    if (TRUE.includes(s)) return true;
    if (FALSE.includes(s)) return false;
  }
  return v;
}, z.boolean({ error: (i) => `must be a boolean (true/false, or a string pydantic reads as one), got ${JSON.stringify(i.input)}` }));

/** pydantic v2's lax int: an integer, a float without fraction (5e8), or a string of an integer. */
export const laxInt = (min: number) => z.preprocess(
  (v) => (typeof v === "string" && /^\s*[-+]?\d+\s*$/.test(v) ? Number(v) : v),
  z.number({ error: (i) => `must be an integer >= ${min}, got ${JSON.stringify(i.input)}` })
    .refine((v) => Number.isInteger(v) && v >= min, { error: (i) => `must be an integer >= ${min}, got ${JSON.stringify(i.input)}` }),
);

/** pydantic v2's lax float in [lo, hi]. */
const laxFloat = (lo: number, hi: number) => z.preprocess(
  (v) => (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v),
  z.number().refine((v) => v >= lo && v <= hi, { error: (i) => `must be a number in [${lo}, ${hi}], got ${JSON.stringify(i.input)}` }),
);

const device = z.enum(["none", "cpu", "nvme"], { error: (i) => `must be one of none, cpu, nvme, got ${JSON.stringify(i.input)}` }).default("none");

/** `DeepSpeedZeroOffloadOptimizerConfig`: defaults as deepspeed/runtime/zero/offload_config.py (pin_memory true since 2025). */
export const offloadOptimizerSchema = z.strictObject({
  device, nvme_path: z.string().optional(), buffer_count: laxInt(0).default(4), pin_memory: laxBool.default(true),
  pipeline_read: laxBool.default(false), pipeline_write: laxBool.default(false), fast_init: laxBool.default(false),
  ratio: laxFloat(0, 1).default(1), super_offload: laxBool.default(false), cpuadam_cores_perc: laxFloat(0, 1).default(0.8),
});

/** `DeepSpeedZeroOffloadParamConfig`. */
export const offloadParamSchema = z.strictObject({
  device, nvme_path: z.string().optional(), buffer_count: laxInt(0).default(5), buffer_size: laxInt(0).default(1e8),
  max_in_cpu: laxInt(0).default(1e9), pin_memory: laxBool.default(true),
});

/** The zero_optimization fields the course models (aliases already mapped to their stage3_ names). */
export const zeroModelledSchema = z.object({
  // ZeroStageEnum(int, Enum) under pydantic v2's lax mode: "3", " 3 ", "3.0", 3.0 and true (1) are stages too.
  stage: z.preprocess(
    (v) => (typeof v === "boolean" ? Number(v) : typeof v === "string" && /^\s*[-+]?\d+(\.0*)?\s*$/.test(v) ? Number(v) : v),
    z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], { error: (i) => `must be 0, 1, 2 or 3, got ${JSON.stringify(i.input)}` }),
  ).default(0),
  allgather_partitions: laxBool.default(true),
  allgather_bucket_size: laxInt(0).default(ZERO_DEFAULTS.allgather_bucket_size),
  reduce_scatter: laxBool.default(true),
  reduce_bucket_size: laxInt(0).default(ZERO_DEFAULTS.reduce_bucket_size),
  overlap_comm: laxBool.optional(),
  contiguous_gradients: laxBool.default(true),
  stage3_prefetch_bucket_size: laxInt(0).default(ZERO_DEFAULTS.stage3_prefetch_bucket_size),
  stage3_max_live_parameters: laxInt(0).default(ZERO_DEFAULTS.stage3_max_live_parameters),
  stage3_param_persistence_threshold: laxInt(0).default(ZERO_DEFAULTS.stage3_param_persistence_threshold),
  offload_optimizer: offloadOptimizerSchema.optional(),
  offload_param: offloadParamSchema.optional(),
});

/** `DeepSpeedBF16Config` (deepspeed/runtime/precision_config.py). */
export const bf16Schema = z.strictObject({
  enabled: laxBool.default(false), immediate_grad_update: laxBool.default(false), check_grad_overflow: laxBool.default(true),
  bf16_master_weights_and_grads: laxBool.default(false), bf16_optimizer_states: laxBool.default(false),
});

/**
 * The `aio` block (NVMe offload's asynchronous I/O), read key by key with
 * `get_scalar_param`: unknown keys are ignored, defaults as swap_tensor/constants.py.
 */
export const aioSchema = z.object({
  block_size: laxInt(1).default(1048576), queue_depth: laxInt(1).default(8), intra_op_parallelism: laxInt(1).default(1),
  single_submit: laxBool.default(false), overlap_events: laxBool.default(true), use_gds: laxBool.default(false),
});

/** The batch keys, gradient clipping, optimizer and scheduler (top level, read with get_scalar_param). */
export const topModelledSchema = z.object({
  train_batch_size: laxInt(1).optional(),
  train_micro_batch_size_per_gpu: laxInt(1).optional(),
  gradient_accumulation_steps: laxInt(1).optional(),
  gradient_clipping: z.number().min(0).default(0),
  optimizer: z.object({ type: z.string(), params: z.record(z.string(), z.unknown()).default({}) }).optional(),
  scheduler: z.object({ type: z.string(), params: z.record(z.string(), z.unknown()).default({}) }).optional(),
});

/**
 * Fields of the monitor and comms blocks (pydantic, extra="forbid"): DeepSpeed refuses another key in them.
 * @see deepspeed/monitor/config.py (TensorBoardConfig, WandbConfig, CSVConfig, CometConfig), deepspeed/comm/config.py (CommsLoggerConfig)
 */
export const STRICT_BLOCK_FIELDS: Readonly<Record<string, readonly string[]>> = {
  tensorboard: ["enabled", "output_path", "job_name"],
  wandb: ["enabled", "group", "team", "project"],
  csv_monitor: ["enabled", "output_path", "job_name"],
  comet: ["enabled", "samples_log_interval", "project", "workspace", "api_key", "experiment_name", "experiment_key", "online", "mode"],
  comms_logger: ["enabled", "prof_all", "prof_ops", "verbose", "debug"],
};

/** Offload settings, typed for the offload chapter's timeline. */
export type OffloadOptimizerConfig = z.infer<typeof offloadOptimizerSchema>;
/** Parameter offload settings (ZeRO-3 only). */
export type OffloadParamConfig = z.infer<typeof offloadParamSchema>;
/** The aio block with its defaults. */
export type AioConfig = z.infer<typeof aioSchema>;
