/**
 * A DeepSpeed JSON config as users write it, with `"auto"` values filled the
 * way the Hugging Face Trainer fills them, read as DeepSpeed reads it.
 */
import { parseDeepSpeedFp16, type DeepSpeedRelease, type Fp16Settings } from "../amp/index.js";
import { didYouMean } from "../suggest.js";
import type { ZeroKnobs, ZeroStage } from "./validateZeroOptions.js";
import { aioSchema, bf16Schema, STRICT_BLOCK_FIELDS, topModelledSchema, zeroModelledSchema, type AioConfig, type OffloadOptimizerConfig, type OffloadParamConfig } from "./deepSpeedSchema.js";
import { LEGACY_KEYS, MODELLED_KEYS, NOT_MODELLED_KEYS } from "./deepSpeedKeys.js";
import { fillHfAuto, type HfTrainerArgs } from "./fillHfAuto.js";
import { readZeroBlock } from "./readZeroBlock.js";
import { deepSpeedBatch, type DeepSpeedBatch } from "./deepSpeedBatch.js";
import { issuesMessage, isObj, type Json } from "./zodIssues.js";

export type { HfTrainerArgs } from "./fillHfAuto.js";
export type { OffloadOptimizerConfig, OffloadParamConfig, AioConfig } from "./deepSpeedSchema.js";
export { zeroModelledSchema as ZeroOptimizationSchema, topModelledSchema as DeepSpeedConfigSchema } from "./deepSpeedSchema.js";

/** A parsed DeepSpeed config. */
export interface DeepSpeedConfig extends DeepSpeedBatch {
  stage: ZeroStage;
  /** The simulation's knobs (overlap_comm decided by the stage when absent, as DeepSpeed). */
  knobs: Required<ZeroKnobs>;
  /** fp32 when neither fp16 nor bf16 is enabled: DeepSpeed's default. */
  precision: "fp32" | "fp16" | "bf16";
  /** The fp16 block as lib/amp parses it (loss scaler settings), or null when fp16 is off. */
  fp16: Fp16Settings | null;
  gradientClipping: number;
  /** The optimizer block's `type` (e.g. "AdamW", "Lamb"), or null when the client's optimizer is used. */
  optimizerType: string | null;
  /** Optimizer offload that applies at this stage (null at stage 0, where DeepSpeed ignores it). */
  offloadOptimizer: OffloadOptimizerConfig | null;
  /** Parameter offload that applies (stage 3 only; DeepSpeed ignores it below). */
  offloadParam: OffloadParamConfig | null;
  /** The aio block with its defaults (NVMe offload's I/O), or null when absent. */
  aio: AioConfig | null;
  /** Keys DeepSpeed reads that the course does not model, each with what it does. */
  notModelled: string[];
  /** Keys DeepSpeed does not read at all (it ignores them silently), with a suggestion. */
  ignored: string[];
  /** Legacy keys used, with their replacement. */
  deprecated: string[];
  /** Every key and value after "auto" filling, for a round trip. */
  resolved: Record<string, unknown>;
  /** Everything above, and the "auto" fills, as sentences. */
  notes: string[];
}

/**
 * Parses a DeepSpeed config (an object or JSON text) as DeepSpeed
 * (commit edaa722, v0.19.5+) reads it: the ZeRO stage and knobs, precision
 * (fp32 when neither fp16 nor bf16 is enabled), the fp16 loss scaler (lib/amp),
 * the batch rule, the offload blocks (with `pipeline_read`/`pipeline_write`)
 * and the `aio` block. Legacy keys DeepSpeed still accepts are read and
 * reported (`bfloat16`, `cpu_offload`, `cpu_offload_param`,
 * `stage3_gather_fp16_weights_on_model_save`, `zero_optimization: true`); keys
 * it reads but the course does not model (`activation_checkpointing`,
 * `sparse_attention`, `flops_profiler`, `wandb`, Lamb's parameters, …) are
 * reported as not modelled; unknown top-level keys are ignored, as DeepSpeed
 * ignores them, and reported; unknown keys inside the pydantic blocks
 * (zero_optimization, offload_*, bf16, the monitors) are errors, as DeepSpeed
 * raises them. Values are coerced as pydantic does ("true" is true). `"auto"`
 * is filled from the Hugging Face Trainer's arguments when given.
 *
 * @param input the config (parsed JSON or its text)
 * @param trainer the Trainer's arguments (to fill "auto"); a field left out is not checked against the config
 * @param options `worldSize`: data-parallel size when no Trainer is given; `release`: the DeepSpeed release of the fp16
 *   rules ("current" refuses the notes' `min_loss_scale: 1e-10`, "v0.17.0" accepts it); `autoDefaults`: values for "auto" whose argument is absent
 * @returns {@link DeepSpeedConfig}
 * @throws TypeError `zero_optimization: unknown key "stage4_foo" (DeepSpeedZeroConfig forbids extra fields)`;
 *   `train_batch_size is "auto": only the Hugging Face Trainer fills it …`;
 *   RangeError `train_batch_size (100) must equal … = 128`; `fp16.enabled and bf16.enabled are both true`;
 *   `zero_optimization: cpu_offload and offload_optimizer are both given (DeepSpeed: "Cannot provide deprecated parameter … together")`
 * @example parseDeepSpeedConfig({ train_micro_batch_size_per_gpu: 8, gradient_accumulation_steps: 8, zero_optimization: { stage: 2 } }, undefined, { worldSize: 8 }).trainBatchSize // 512
 * @see deepspeed/runtime/config.py, zero/config.py, zero/offload_config.py, precision_config.py, swap_tensor/aio_config.py at edaa722;
 *   transformers integrations/deepspeed.py (HfTrainerDeepSpeedConfig)
 */
export function parseDeepSpeedConfig(input: unknown, trainer?: HfTrainerArgs, options: { worldSize?: number; release?: DeepSpeedRelease; autoDefaults?: Partial<HfTrainerArgs> } = {}): DeepSpeedConfig {
  const { worldSize, release = "current", autoDefaults = {} } = options;
  let raw = input;
  if (typeof input === "string") {
    try { raw = JSON.parse(input); } catch (e) {
      const hjson = /\/\/|\/\*|,\s*[}\]]/.test(input) ? " (deepspeed.initialize reads files with hjson, which allows comments and trailing commas; the Hugging Face Trainer's json.load and this reader do not)" : "";
      throw new TypeError(`the DeepSpeed config is not valid JSON: ${(e as Error).message}${hjson}`);
    }
  }
  if (!isObj(raw)) throw new TypeError(`the DeepSpeed config must be a JSON object, got ${Array.isArray(raw) ? "an array" : JSON.stringify(raw)}`);
  const notes: string[] = [], notModelled: string[] = [], ignored: string[] = [], deprecated: string[] = [];
  const src: Json = { ...raw };
  if ("bfloat16" in src) {
    if ("bf16" in src) deprecated.push(`bfloat16 (legacy) is ignored: bf16 is also given and wins (get_bfloat16_config)`);
    else deprecated.push(`bfloat16 → bf16: ${LEGACY_KEYS.bfloat16.effect}`);
  }
  if (typeof src.zero_optimization === "boolean") {
    deprecated.push(`zero_optimization: ${src.zero_optimization} is the deprecated format: stage ${src.zero_optimization ? 1 : 0}${src.zero_optimization ? `, allgather_bucket_size from allgather_size (${String(src.allgather_size ?? 5e8)})` : ""} (read_zero_config_deprecated)`);
    src.zero_optimization = src.zero_optimization ? { stage: 1, allgather_bucket_size: src.allgather_size ?? 5e8 } : { stage: 0 };
  }
  const filled = fillHfAuto(src, trainer, autoDefaults, notes);
  for (const [k, v] of Object.entries(filled)) {
    if (MODELLED_KEYS.includes(k) || k === "allgather_size") continue;
    if (k in NOT_MODELLED_KEYS) {
      const fields = STRICT_BLOCK_FIELDS[k];
      if (fields && isObj(v)) {
        const extra = Object.keys(v).filter((f) => !fields.includes(f));
        if (extra.length) throw new TypeError(`${k}: unknown key${extra.length > 1 ? "s" : ""} ${extra.map((f) => JSON.stringify(f)).join(", ")} (DeepSpeed's pydantic model forbids extra fields; allowed: ${fields.join(", ")})`);
      }
      notModelled.push(`${k}: ${NOT_MODELLED_KEYS[k]}`);
    } else ignored.push(`${k}: not a key DeepSpeed reads; it ignores it${didYouMean(k, [...MODELLED_KEYS, ...Object.keys(NOT_MODELLED_KEYS)])}`);
  }
  const top = topModelledSchema.safeParse(filled);
  if (!top.success) throw new TypeError(issuesMessage(top.error.issues));
  const zero = readZeroBlock(filled.zero_optimization, { notes, notModelled, deprecated });
  const fp16 = filled.fp16 !== undefined ? parseDeepSpeedFp16({ fp16: filled.fp16 }, undefined, release) : null;
  const bf16Raw = filled.bf16 ?? filled.bfloat16;
  const bf16Key = filled.bf16 !== undefined ? "bf16" : "bfloat16";
  const bf16 = bf16Raw === undefined ? null : bf16Schema.safeParse(bf16Raw);
  if (bf16 && !bf16.success) throw new TypeError(issuesMessage(bf16.error.issues, bf16Key));
  const fp16On = fp16 !== null && fp16.block.enabled, bf16On = bf16?.data?.enabled ?? false;
  if (fp16On && bf16On) throw new RangeError("fp16.enabled and bf16.enabled are both true: choose one (DeepSpeed: 'bfloat16 and fp16 modes cannot be simultaneously enabled')");
  const stage = zero.data.stage;
  if (bf16?.data?.bf16_master_weights_and_grads && stage === 0) throw new RangeError(`${bf16Key}.bf16_master_weights_and_grads needs ZeRO stage 1, 2 or 3, got stage 0`);
  if (bf16?.data?.bf16_optimizer_states && !bf16.data.bf16_master_weights_and_grads) throw new RangeError(`${bf16Key}.bf16_optimizer_states needs ${bf16Key}.bf16_master_weights_and_grads`);
  if (bf16?.data?.bf16_master_weights_and_grads) notModelled.push(`${bf16Key}.bf16_master_weights_and_grads: bf16 master weights and gradients instead of fp32 (the estimate keeps the fp32 master)`);
  if (fp16?.block.fp16_master_weights_and_grads && stage === 0) throw new RangeError("fp16.fp16_master_weights_and_grads needs ZeRO stage 1, 2 or 3, got stage 0");
  if (!fp16On && !bf16On) notes.push("neither fp16 nor bf16 is enabled: DeepSpeed trains in fp32");
  const aioParsed = isObj(filled.aio) ? aioSchema.safeParse(filled.aio) : null;
  if (aioParsed && !aioParsed.success) throw new TypeError(issuesMessage(aioParsed.error.issues, "aio"));
  if (isObj(filled.aio)) for (const k of Object.keys(filled.aio)) if (!(k in aioSchema.shape)) ignored.push(`aio.${k}: not an aio key; DeepSpeed reads the six it knows with get_scalar_param and ignores the rest${k === "thread_count" ? " (renamed intra_op_parallelism in DeepSpeed v0.16.4, PR #7056: write that)" : didYouMean(k, Object.keys(aioSchema.shape))}`);
  const opt = top.data.optimizer;
  if (opt) {
    const extra = Object.keys(opt.params).filter((k) => !["lr", "betas", "eps", "weight_decay"].includes(k));
    if (extra.length) notModelled.push(`optimizer.params ${extra.join(", ")}: passed to ${opt.type}'s constructor (e.g. Lamb's max_coeff/min_coeff), which checks them; no effect on memory`);
    if (!/^(adam|adamw|fusedadam|cpuadam|onebitadam|zerooneadam|lamb|onebitlamb)$/i.test(opt.type)) notModelled.push(`optimizer.type ${opt.type}: the estimate's --optimizer decides the optimizer states`);
  }
  const ws = trainer?.world_size ?? worldSize;
  if (ws !== undefined && !(Number.isInteger(ws) && ws >= 1)) throw new RangeError(`world_size must be an integer >= 1, got ${ws}`);
  const t = top.data;
  const batch = deepSpeedBatch(t.train_batch_size, t.train_micro_batch_size_per_gpu, t.gradient_accumulation_steps, ws);
  const z = zero.data;
  const knobs: Required<ZeroKnobs> = {
    reduce_bucket_size: Math.max(1, z.reduce_bucket_size), allgather_bucket_size: Math.max(1, z.allgather_bucket_size), overlap_comm: z.overlap_comm ?? stage === 3,
    contiguous_gradients: z.contiguous_gradients, stage3_prefetch_bucket_size: Math.max(1, z.stage3_prefetch_bucket_size),
    stage3_max_live_parameters: Math.max(1, z.stage3_max_live_parameters), stage3_param_persistence_threshold: z.stage3_param_persistence_threshold,
  };
  const offOpt = z.offload_optimizer && z.offload_optimizer.device !== "none" ? z.offload_optimizer : null;
  const offParam = z.offload_param && z.offload_param.device !== "none" ? z.offload_param : null;
  if (offParam && stage !== 3) notes.push(`zero_optimization.offload_param is ignored at stage ${stage}: DeepSpeed reads it only at stage 3`);
  if (offOpt && stage === 0) notes.push("zero_optimization.offload_optimizer is ignored at stage 0: only the ZeRO optimizers (stages 1–3) offload");
  if (offOpt && offOpt.ratio < 1 && stage !== 3) throw new RangeError(`zero_optimization.offload_optimizer.ratio (${offOpt.ratio}) below 1 needs stage 3 (DeepSpeed: "Partial offloading only supported for ZeRO Stage 3.")`);
  if ((offOpt?.device === "nvme" || offParam?.device === "nvme") && !aioParsed) notes.push("NVMe offload without an aio block: DeepSpeed uses the aio defaults (block_size 1 MiB, queue_depth 8, …)");
  return {
    stage, knobs, precision: fp16On ? "fp16" : bf16On ? "bf16" : "fp32", fp16: fp16On ? fp16 : null, ...batch,
    gradientClipping: t.gradient_clipping, optimizerType: opt?.type ?? null,
    offloadOptimizer: stage > 0 ? offOpt : null, offloadParam: stage === 3 ? offParam : null, aio: aioParsed ? aioParsed.data : null,
    notModelled, ignored, deprecated, resolved: filled,
    notes: [...notes, ...deprecated.map((d) => `deprecated: ${d}`), ...notModelled.map((n) => `not modelled: ${n}`), ...ignored.map((i) => `ignored: ${i}`)],
  };
}
