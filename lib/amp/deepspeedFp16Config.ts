/**
 * The `fp16` block of a DeepSpeed config, parsed with zod into a loss scaler,
 * with the Hugging Face Trainer's resolution of `"enabled": "auto"`.
 */
import { z } from "zod";
import { DynamicLossScaler, LossScaler, type DynamicLossScalerOptions } from "./DynamicLossScaler.js";

/**
 * The scaler keys whose presence decides, in DeepSpeed before the pydantic config, whether `dynamic_loss_args` exists.
 *
 * @example
 * SCALER_KEYS.length; // 5
 * @see deepspeedai/DeepSpeed deepspeed/runtime/config.py `get_dynamic_loss_scale_args` (older releases); https://www.deepspeed.ai/docs/config-json/#fp16-training-options
 */
export const SCALER_KEYS = ["initial_scale_power", "loss_scale_window", "min_loss_scale", "hysteresis", "consecutive_hysteresis"] as const;

const posInt = (name: string) => z.number({ error: `fp16.${name} must be a number` }).refine((v) => Number.isInteger(v) && v >= 1, { error: (i) => `fp16.${name} must be an integer >= 1, got ${String(i.input)}` });

/**
 * zod schema of DeepSpeed's `DeepSpeedFP16Config` (deepspeed/runtime/precision_config.py):
 * the same keys and defaults, unknown keys rejected (DeepSpeed's config models forbid extras).
 *
 * `safeParse` reports, rather than throws, messages such as `fp16.loss_scale_window must be an integer >= 1, got -5`.
 * @example
 * Fp16BlockSchema.parse({ enabled: true }).initial_scale_power; // 16
 * Fp16BlockSchema.safeParse({ enabled: true, hysteresis: 0 }).success; // false
 * @see deepspeedai/DeepSpeed deepspeed/runtime/precision_config.py; https://www.deepspeed.ai/docs/config-json/#fp16-training-options
 */
export const Fp16BlockSchema = z.strictObject({
  enabled: z.boolean({ error: "fp16.enabled must be true or false (\"auto\" is resolved by the HF Trainer before DeepSpeed sees it)" }).default(false),
  auto_cast: z.boolean().default(false),
  loss_scale: z.number({ error: (i) => `fp16.loss_scale must be a finite number >= 0, got ${String(i.input)}` }).refine((v) => Number.isFinite(v) && v >= 0, { error: (i) => `fp16.loss_scale must be a finite number >= 0 (0 enables dynamic loss scaling), got ${String(i.input)}` }).default(0),
  initial_scale_power: z.number().refine((v) => Number.isInteger(v) && v >= 0 && v <= 127, { error: (i) => `fp16.initial_scale_power must be an integer in [0, 127], got ${String(i.input)}` }).default(16),
  loss_scale_window: posInt("loss_scale_window").default(1000),
  hysteresis: posInt("hysteresis").default(2),
  consecutive_hysteresis: z.boolean().default(false),
  min_loss_scale: z.number().refine((v) => Number.isFinite(v) && v > 0, { error: (i) => `fp16.min_loss_scale must be a positive finite number, got ${String(i.input)}` }).default(1),
  fp16_master_weights_and_grads: z.boolean().default(false),
});

/** The parsed block, every default filled in. */
export type Fp16Block = z.infer<typeof Fp16BlockSchema>;

/** The Trainer flags that `"auto"` is filled from (`TrainingArguments.fp16`, `fp16_full_eval`). */
export interface HfTrainerPrecisionArgs {
  fp16?: boolean;
  fp16FullEval?: boolean;
}

/** What a DeepSpeed config's fp16 block means for loss scaling. */
export interface Fp16Settings {
  /** The block after "auto" resolution and defaults. */
  block: Fp16Block;
  /** `"dynamic"` (enabled, loss_scale 0), `"static"` (enabled, loss_scale > 0) or `"none"` (fp16 off: scale 1). */
  kind: "dynamic" | "static" | "none";
  /** Scaler keys the block sets; the others take DeepSpeed's defaults. */
  keysSet: string[];
  /** Options of the DynamicLossScaler that the current DeepSpeed builds (kind "dynamic"). */
  scaler: DynamicLossScalerOptions;
  /** Options that older DeepSpeed (config.py `get_dynamic_loss_scale_args`, before the pydantic `DeepSpeedFP16Config`; ZeRO optimizer) built when `keysSet` is empty: `DynamicLossScaler()` defaults. */
  legacyScaler: DynamicLossScalerOptions;
}

/**
 * `DynamicLossScaler()`'s own constructor defaults in older DeepSpeed: 2^32, window 1000, min 1, no hysteresis.
 *
 * @example
 * LEGACY_DYNAMIC_DEFAULTS.initScale; // 4294967296 (2^32)
 * @see deepspeedai/DeepSpeed deepspeed/runtime/fp16/loss_scaler.py `DynamicLossScaler.__init__` (default arguments)
 */
export const LEGACY_DYNAMIC_DEFAULTS: Readonly<DynamicLossScalerOptions> = Object.freeze({ initScale: 2 ** 32, scaleWindow: 1000, minScale: 1, delayedShift: 1, consecutiveHysteresis: false });

/**
 * Parses the `fp16` block of a DeepSpeed config.
 *
 * `"enabled": "auto"` is what the Hugging Face Trainer fills in before
 * DeepSpeed reads the config: `fp16.enabled ← args.fp16 or args.fp16_full_eval`
 * (`HfTrainerDeepSpeedConfig.trainer_config_process`). Without Trainer args,
 * "auto" is an error, as it is for DeepSpeed itself.
 *
 * @param config a whole DeepSpeed config (object); a missing `fp16` block means fp16 off
 * @param trainer the Trainer's precision flags, to resolve `"auto"`
 * @returns {@link Fp16Settings}
 * @throws {TypeError} `fp16.loss_scale_window must be an integer >= 1, got -5` (every problem, one per line)
 * @example parseDeepSpeedFp16({fp16: {enabled: "auto", loss_scale: 0, loss_scale_window: 100, initial_scale_power: 16, hysteresis: 2, min_loss_scale: 1e-10}}, {fp16: true}).scaler
 * // {initScale: 65536, scaleWindow: 100, minScale: 1e-10, delayedShift: 2, consecutiveHysteresis: false, raiseErrorAtMinScale: true}
 * @see deepspeedai/DeepSpeed deepspeed/runtime/precision_config.py; https://www.deepspeed.ai/docs/config-json/#fp16-training-options; huggingface/transformers src/transformers/integrations/deepspeed.py
 */
export function parseDeepSpeedFp16(config: unknown, trainer?: HfTrainerPrecisionArgs): Fp16Settings {
  if (typeof config !== "object" || config === null || Array.isArray(config)) throw new TypeError(`config must be a DeepSpeed config object, got ${Array.isArray(config) ? "an array" : typeof config}`);
  const raw = (config as Record<string, unknown>).fp16 ?? {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new TypeError(`fp16 must be an object, got ${JSON.stringify(raw)}`);
  const block: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  if (block.enabled === "auto") {
    if (!trainer) throw new TypeError(`fp16.enabled is "auto": only the Hugging Face Trainer resolves it (from --fp16 / --fp16_full_eval); pass the Trainer's flags`);
    block.enabled = Boolean(trainer.fp16 || trainer.fp16FullEval);
  }
  const parsed = Fp16BlockSchema.safeParse(block);
  if (!parsed.success) throw new TypeError(parsed.error.issues.map((i) => (i.code === "unrecognized_keys" ? `fp16 has unknown keys: ${i.keys.join(", ")}` : i.message)).join("\n"));
  const b = parsed.data;
  const kind = !b.enabled ? "none" : b.loss_scale === 0 ? "dynamic" : "static";
  return {
    block: b,
    kind,
    keysSet: SCALER_KEYS.filter((k) => k in block),
    scaler: { initScale: 2 ** b.initial_scale_power, scaleWindow: b.loss_scale_window, minScale: b.min_loss_scale, delayedShift: b.hysteresis, consecutiveHysteresis: b.consecutive_hysteresis, raiseErrorAtMinScale: true },
    legacyScaler: { ...LEGACY_DYNAMIC_DEFAULTS, raiseErrorAtMinScale: true },
  };
}

/**
 * The loss scaler DeepSpeed's ZeRO optimizer creates for these settings
 * (`CreateLossScaler`): dynamic for fp16 with loss_scale 0, static
 * `loss_scale` for fp16 otherwise, static 1.0 when fp16 is off.
 * @param settings from {@link parseDeepSpeedFp16}
 * @param version "current" (pydantic defaults always apply) or "legacy" (no scaler key set → `DynamicLossScaler()` defaults)
 * @returns a {@link DynamicLossScaler} (kind "dynamic") or a static {@link LossScaler}
 * @throws {RangeError} the constructors' messages, e.g. `scale must be a positive finite number, got 0` (not reachable from a parsed block)
 * @example createLossScaler(parseDeepSpeedFp16({fp16: {enabled: true, loss_scale: 128}})).lossScale // 128
 * @see deepspeedai/DeepSpeed deepspeed/runtime/fp16/loss_scaler.py `CreateLossScaler`
 */
export function createLossScaler(settings: Fp16Settings, version: "current" | "legacy" = "current"): DynamicLossScaler | LossScaler {
  if (settings.kind === "none") return new LossScaler(1.0);
  if (settings.kind === "static") return new LossScaler(settings.block.loss_scale);
  const useLegacy = version === "legacy" && settings.keysSet.length === 0;
  return new DynamicLossScaler(useLegacy ? settings.legacyScaler : settings.scaler);
}
