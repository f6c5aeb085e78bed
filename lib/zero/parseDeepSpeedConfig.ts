/**
 * A DeepSpeed JSON config as users write it, with `"auto"` values filled the
 * way the Hugging Face Trainer fills them, checked as DeepSpeed checks it.
 */
import { z } from "zod";
import { parseDeepSpeedFp16, type DeepSpeedRelease, type Fp16Settings } from "../amp/index.js";
import { ZERO_DEFAULTS, type ZeroKnobs, type ZeroStage } from "./validateZeroOptions.js";

/** The Trainer arguments `"auto"` is filled from (TrainingArguments names). */
export interface HfTrainerArgs {
  /** Data-parallel world size (GPUs). */
  world_size: number;
  per_device_train_batch_size: number;
  gradient_accumulation_steps?: number;
  max_grad_norm?: number;
  learning_rate?: number;
  adam_beta1?: number;
  adam_beta2?: number;
  adam_epsilon?: number;
  weight_decay?: number;
  fp16?: boolean;
  bf16?: boolean;
  /** The model's hidden_size (for the ZeRO bucket sizes set to "auto"). */
  hidden_size?: number;
}

const int = (min: number) => z.number().refine((v) => Number.isInteger(v) && v >= min, { error: (i) => `must be an integer >= ${min}, got ${JSON.stringify(i.input)}` });
const offloadOptimizer = z.strictObject({ device: z.enum(["none", "cpu", "nvme"]).default("none"), nvme_path: z.string().optional(), pin_memory: z.boolean().default(false), buffer_count: int(1).default(4), fast_init: z.boolean().default(false), ratio: z.number().min(0).max(1).default(1) });
const offloadParam = z.strictObject({ device: z.enum(["none", "cpu", "nvme"]).default("none"), nvme_path: z.string().optional(), pin_memory: z.boolean().default(false), buffer_count: int(1).default(5), buffer_size: int(1).default(1e8), max_in_cpu: int(0).default(1e9) });

const zeroSchema = z.strictObject({
  stage: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], { error: (i) => `must be 0, 1, 2 or 3, got ${JSON.stringify(i.input)}` }).default(0),
  allgather_partitions: z.boolean().default(true),
  allgather_bucket_size: int(1).default(ZERO_DEFAULTS.allgather_bucket_size),
  reduce_scatter: z.boolean().default(true),
  use_multi_rank_bucket_allreduce: z.boolean().default(true),
  reduce_bucket_size: int(1).default(ZERO_DEFAULTS.reduce_bucket_size),
  overlap_comm: z.boolean().optional(),
  contiguous_gradients: z.boolean().default(true),
  stage3_prefetch_bucket_size: int(1).default(ZERO_DEFAULTS.stage3_prefetch_bucket_size),
  stage3_max_live_parameters: int(1).default(ZERO_DEFAULTS.stage3_max_live_parameters),
  stage3_max_reuse_distance: int(0).default(1e9),
  stage3_param_persistence_threshold: int(0).default(ZERO_DEFAULTS.stage3_param_persistence_threshold),
  stage3_gather_16bit_weights_on_model_save: z.boolean().default(false),
  sub_group_size: int(1).default(1e9),
  round_robin_gradients: z.boolean().default(false),
  offload_optimizer: offloadOptimizer.optional(),
  offload_param: offloadParam.optional(),
});

const topSchema = z.strictObject({
  train_batch_size: int(1).optional(),
  train_micro_batch_size_per_gpu: int(1).optional(),
  gradient_accumulation_steps: int(1).optional(),
  gradient_clipping: z.number().min(0).default(0),
  steps_per_print: int(1).default(10),
  wall_clock_breakdown: z.boolean().default(false),
  prescale_gradients: z.boolean().default(false),
  communication_data_type: z.enum(["fp32", "fp16", "bf16"]).optional(),
  zero_allow_untested_optimizer: z.boolean().default(false),
  fp16: z.record(z.string(), z.unknown()).optional(),
  bf16: z.strictObject({ enabled: z.boolean().default(false) }).optional(),
  zero_optimization: zeroSchema.default(zeroSchema.parse({})),
  optimizer: z.strictObject({ type: z.string(), params: z.strictObject({ lr: z.number().positive().optional(), betas: z.tuple([z.number(), z.number()]).optional(), eps: z.number().min(0).optional(), weight_decay: z.number().min(0).optional() }).default({}) }).optional(),
  scheduler: z.strictObject({ type: z.string(), params: z.record(z.string(), z.unknown()).default({}) }).optional(),
});

/** Offload settings, typed for the offload chapter's timeline. */
export type OffloadOptimizerConfig = z.infer<typeof offloadOptimizer>;
/** Parameter offload settings (ZeRO-3 only). */
export type OffloadParamConfig = z.infer<typeof offloadParam>;

/** A parsed DeepSpeed config. */
export interface DeepSpeedConfig {
  stage: ZeroStage;
  /** The simulation's knobs (overlap_comm decided by the stage when absent, as DeepSpeed). */
  knobs: Required<ZeroKnobs>;
  precision: "fp32" | "fp16" | "bf16";
  /** The fp16 block as lib/amp parses it (loss scaler settings), or null when fp16 is off. */
  fp16: Fp16Settings | null;
  trainBatchSize: number;
  microBatchPerGpu: number;
  gradientAccumulationSteps: number;
  /** Data-parallel size the batch sizes imply (train_batch_size / (micro × accumulation)). */
  dataParallelSize: number;
  gradientClipping: number;
  offloadOptimizer: OffloadOptimizerConfig | null;
  offloadParam: OffloadParamConfig | null;
  /** Every key and value after "auto" filling, for a round trip. */
  resolved: Record<string, unknown>;
}

export { zeroSchema as ZeroOptimizationSchema, topSchema as DeepSpeedConfigSchema };

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Fills `"auto"` values as transformers' HfTrainerDeepSpeedConfig does, and
 * refuses a value that contradicts the Trainer's argument (the Trainer's "DeepSpeed config mismatch").
 * @returns a deep copy with every "auto" it knows filled, and notes on what it left
 */
function fillAuto(config: Json, t: HfTrainerArgs | undefined, notes: string[]): Json {
  const c: Json = structuredClone(config);
  const fill = (obj: Json | undefined, key: string, path: string, value: unknown, arg: string) => {
    if (!obj || !(key in obj)) return;
    if (obj[key] === "auto") {
      if (!t) throw new TypeError(`${path} is "auto": only the Hugging Face Trainer fills it (from ${arg}); pass the Trainer's arguments`);
      if (value === undefined) throw new TypeError(`${path} is "auto" but ${arg} is not given`);
      obj[key] = value;
    } else if (t && value !== undefined && JSON.stringify(obj[key]) !== JSON.stringify(value)) {
      throw new RangeError(`${path} is ${JSON.stringify(obj[key])} but ${arg} is ${JSON.stringify(value)} (the Hugging Face Trainer refuses the mismatch)`);
    }
  };
  const gas = t ? t.gradient_accumulation_steps ?? 1 : undefined;
  fill(c, "train_micro_batch_size_per_gpu", "train_micro_batch_size_per_gpu", t?.per_device_train_batch_size, "--per_device_train_batch_size");
  fill(c, "gradient_accumulation_steps", "gradient_accumulation_steps", gas, "--gradient_accumulation_steps");
  fill(c, "train_batch_size", "train_batch_size", t ? t.world_size * t.per_device_train_batch_size * gas! : undefined, "world_size × --per_device_train_batch_size × --gradient_accumulation_steps");
  fill(c, "gradient_clipping", "gradient_clipping", t ? t.max_grad_norm ?? 1 : undefined, "--max_grad_norm");
  if (isObj(c.fp16)) fill(c.fp16, "enabled", "fp16.enabled", t ? Boolean(t.fp16) : undefined, "--fp16");
  if (isObj(c.bf16)) fill(c.bf16, "enabled", "bf16.enabled", t ? Boolean(t.bf16) : undefined, "--bf16");
  const op = isObj(c.optimizer) && isObj(c.optimizer.params) ? c.optimizer.params : undefined;
  fill(op, "lr", "optimizer.params.lr", t ? t.learning_rate ?? 5e-5 : undefined, "--learning_rate");
  fill(op, "betas", "optimizer.params.betas", t ? [t.adam_beta1 ?? 0.9, t.adam_beta2 ?? 0.999] : undefined, "--adam_beta1/--adam_beta2");
  fill(op, "eps", "optimizer.params.eps", t ? t.adam_epsilon ?? 1e-8 : undefined, "--adam_epsilon");
  fill(op, "weight_decay", "optimizer.params.weight_decay", t ? t.weight_decay ?? 0 : undefined, "--weight_decay");
  const zo = isObj(c.zero_optimization) ? c.zero_optimization : undefined;
  if (zo) {
    const h = t?.hidden_size;
    for (const [key, v] of [["reduce_bucket_size", h && h * h], ["stage3_prefetch_bucket_size", h && Math.floor(0.9 * h * h)], ["stage3_param_persistence_threshold", h && 10 * h]] as const) {
      if (zo[key] !== "auto") continue;
      if (key !== "reduce_bucket_size" && zo.stage !== 3) { delete zo[key]; notes.push(`zero_optimization.${key} is "auto" at stage ${String(zo.stage ?? 0)}: the Trainer fills it only at stage 3; unused here`); continue; }
      if (!h) throw new TypeError(`zero_optimization.${key} is "auto": the Trainer fills it from the model's hidden_size; give hidden_size`);
      zo[key] = v;
    }
  }
  if (isObj(c.scheduler) && isObj(c.scheduler.params)) for (const [k, v] of Object.entries(c.scheduler.params)) if (v === "auto") notes.push(`scheduler.params.${k} is "auto": the Trainer fills it from the run's length; not simulated`);
  return c;
}

/**
 * Parses a DeepSpeed config (an object or JSON text) into the simulation's
 * settings: ZeRO stage and knobs, precision and the fp16 loss scaler
 * (lib/amp), batch sizes checked as DeepSpeed checks them
 * (train_batch_size = micro × accumulation × data-parallel size), and the
 * offload blocks. `"auto"` values are filled from the Hugging Face Trainer's
 * arguments when given (and refused without them). Unknown keys, values of
 * the wrong type and contradictions are errors that name the key.
 *
 * @param input the config (parsed JSON or its text)
 * @param trainer the Trainer's arguments (to fill "auto"), optional
 * @param options `worldSize`: data-parallel size when no Trainer is given (checked against the batch sizes);
 *   `release`: the DeepSpeed release whose fp16 rules apply (lib/amp's DEEPSPEED_RELEASES; default "current",
 *   which refuses the notes' `min_loss_scale: 1e-10` since v0.17.1 declares it an integer; "v0.17.0" accepts it)
 * @returns {@link DeepSpeedConfig}, with `notes` on anything left unused
 * @throws TypeError `zero_optimization: unknown key "stage4_foo"`; `train_batch_size is "auto": only the Hugging Face Trainer fills it …`;
 *   RangeError `train_batch_size (100) must equal train_micro_batch_size_per_gpu (8) × gradient_accumulation_steps (8) × data-parallel size (2) = 128`;
 *   `zero_optimization.offload_param needs stage 3, got stage 2`; `fp16.enabled and bf16.enabled are both true`
 * @example parseDeepSpeedConfig({ train_micro_batch_size_per_gpu: 8, gradient_accumulation_steps: 8, zero_optimization: { stage: 2 } }, undefined, { worldSize: 8 }).trainBatchSize // 512
 * @see DeepSpeed docs "DeepSpeed Configuration JSON"; deepspeed/runtime/config.py (_batch_assertion, _set_batch_related_parameters);
 *   transformers integrations/deepspeed.py (HfTrainerDeepSpeedConfig.trainer_config_process / trainer_config_finalize)
 */
export function parseDeepSpeedConfig(input: unknown, trainer?: HfTrainerArgs, options: { worldSize?: number; release?: DeepSpeedRelease } = {}): DeepSpeedConfig & { notes: string[] } {
  const { worldSize, release = "current" } = options;
  let raw = input;
  if (typeof input === "string") {
    try { raw = JSON.parse(input); } catch (e) { throw new TypeError(`the DeepSpeed config is not valid JSON: ${(e as Error).message}`); }
  }
  if (!isObj(raw)) throw new TypeError(`the DeepSpeed config must be a JSON object, got ${Array.isArray(raw) ? "an array" : JSON.stringify(raw)}`);
  const notes: string[] = [];
  const filled = fillAuto(raw, trainer, notes);
  const parsed = topSchema.safeParse(filled);
  if (!parsed.success) {
    throw new TypeError(parsed.error.issues.map((i) => {
      const at = i.path.join(".");
      if (i.code === "unrecognized_keys") return `${at || "the config"}: unknown key${i.keys.length > 1 ? "s" : ""} ${i.keys.map((k) => JSON.stringify(k)).join(", ")} (not a DeepSpeed key the course models)`;
      return `${at}: ${i.message}`;
    }).join("\n"));
  }
  const d = parsed.data, zo = d.zero_optimization;
  const fp16 = filled.fp16 !== undefined ? parseDeepSpeedFp16({ fp16: filled.fp16 }, undefined, release) : null;
  const fp16On = fp16 !== null && fp16.block.enabled, bf16On = d.bf16?.enabled ?? false;
  if (fp16On && bf16On) throw new RangeError("fp16.enabled and bf16.enabled are both true: choose one");
  if (zo.offload_param && zo.offload_param.device !== "none" && zo.stage !== 3) throw new RangeError(`zero_optimization.offload_param needs stage 3, got stage ${zo.stage}`);
  if (zo.offload_optimizer && zo.offload_optimizer.device !== "none" && zo.stage === 0) throw new RangeError("zero_optimization.offload_optimizer needs stage 1, 2 or 3, got stage 0");
  const ws = trainer?.world_size ?? worldSize;
  if (ws !== undefined && !(Number.isInteger(ws) && ws >= 1)) throw new RangeError(`world_size must be an integer >= 1, got ${ws}`);
  const batch = batchSizes(d.train_batch_size, d.train_micro_batch_size_per_gpu, d.gradient_accumulation_steps, ws);
  const { offload_optimizer, offload_param, stage } = zo;
  const knobs: Required<ZeroKnobs> = {
    reduce_bucket_size: zo.reduce_bucket_size, allgather_bucket_size: zo.allgather_bucket_size, overlap_comm: zo.overlap_comm ?? stage === 3,
    contiguous_gradients: zo.contiguous_gradients, stage3_prefetch_bucket_size: zo.stage3_prefetch_bucket_size,
    stage3_max_live_parameters: zo.stage3_max_live_parameters, stage3_param_persistence_threshold: zo.stage3_param_persistence_threshold,
  };
  return {
    stage, knobs, precision: fp16On ? "fp16" : bf16On ? "bf16" : "fp32", fp16: fp16On ? fp16 : null, ...batch,
    gradientClipping: d.gradient_clipping,
    offloadOptimizer: offload_optimizer && offload_optimizer.device !== "none" ? offload_optimizer : null,
    offloadParam: offload_param && offload_param.device !== "none" ? offload_param : null,
    resolved: filled, notes,
  };
}

/** DeepSpeed's batch rule: any two of (train_batch_size, micro, accumulation) with the world size give the third; all three must agree. */
function batchSizes(tb: number | undefined, mb: number | undefined, gas: number | undefined, ws: number | undefined) {
  const need = (what: string) => { throw new RangeError(`${what} needs the data-parallel size: give the Trainer's world_size (or worldSize)`); };
  let micro = mb, acc = gas, total = tb, dp = ws;
  if (total !== undefined && micro !== undefined && acc !== undefined) {
    if (dp === undefined) {
      if (total % (micro * acc) !== 0) throw new RangeError(`train_batch_size (${total}) must equal train_micro_batch_size_per_gpu (${micro}) × gradient_accumulation_steps (${acc}) × data-parallel size: ${total} is not a multiple of ${micro * acc}`);
      dp = total / (micro * acc);
    } else if (total !== micro * acc * dp) {
      throw new RangeError(`train_batch_size (${total}) must equal train_micro_batch_size_per_gpu (${micro}) × gradient_accumulation_steps (${acc}) × data-parallel size (${dp}) = ${micro * acc * dp}`);
    }
  } else if (total !== undefined && micro !== undefined) {
    if (dp === undefined) need("gradient_accumulation_steps from train_batch_size");
    acc = total / (micro * dp!);
    if (!Number.isInteger(acc)) throw new RangeError(`train_batch_size (${total}) must be a multiple of train_micro_batch_size_per_gpu (${micro}) × data-parallel size (${dp})`);
  } else if (total !== undefined) {
    if (dp === undefined) need("train_micro_batch_size_per_gpu from train_batch_size");
    acc = acc ?? 1;
    micro = total / (acc * dp!);
    if (!Number.isInteger(micro)) throw new RangeError(`train_batch_size (${total}) must be a multiple of gradient_accumulation_steps (${acc}) × data-parallel size (${dp})`);
  } else if (micro !== undefined) {
    if (dp === undefined) need("train_batch_size");
    acc = acc ?? 1;
    total = micro * acc * dp!;
  } else {
    throw new RangeError("give train_batch_size or train_micro_batch_size_per_gpu (DeepSpeed needs one of them)");
  }
  return { trainBatchSize: total ?? micro! * acc! * dp!, microBatchPerGpu: micro!, gradientAccumulationSteps: acc!, dataParallelSize: dp! };
}
