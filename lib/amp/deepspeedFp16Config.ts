/**
 * The `fp16` block of a DeepSpeed config, parsed with zod into a loss scaler,
 * with the Hugging Face Trainer's resolution of `"enabled": "auto"`.
 */
import { z } from "zod";
import { DEEPSPEED_RELEASES, DynamicLossScaler, LossScaler, type DeepSpeedRelease, type DynamicLossScalerOptions } from "./DynamicLossScaler.js";

/**
 * The scaler keys whose presence decides, in DeepSpeed v0.17.0 and earlier (before the pydantic config), whether `dynamic_loss_args` exists.
 *
 * @example
 * SCALER_KEYS.length; // 5
 * @see deepspeedai/DeepSpeed deepspeed/runtime/config.py `get_dynamic_loss_scale_args` (v0.17.0); https://www.deepspeed.ai/docs/config-json/#fp16-training-options
 */
export const SCALER_KEYS = ["initial_scale_power", "loss_scale_window", "min_loss_scale", "hysteresis", "consecutive_hysteresis"] as const;

const posInt = (name: string) => z.number({ error: `fp16.${name} must be a number` }).refine((v) => Number.isInteger(v) && v >= 1, { error: (i) => `fp16.${name} must be an integer >= 1, got ${String(i.input)}` });

const positive = (name: string) => z.number().refine((v) => Number.isFinite(v) && v > 0, { error: (i) => `fp16.${name} must be a positive finite number, got ${String(i.input)}` });
const positiveInt = (name: string, why: string) => z.number().refine((v) => Number.isInteger(v) && v >= 1, { error: (i) => `fp16.${name} must be an integer >= 1 ${why}, got ${String(i.input)}` });

/**
 * zod schema of an fp16 block for one DeepSpeed release: the keys and defaults
 * of `DeepSpeedFP16Config` (deepspeed/runtime/precision_config.py), unknown keys
 * rejected (DeepSpeed's config models forbid extras). On "current" (≥ 0.17.1)
 * `min_loss_scale` is declared `int`, so pydantic rejects a fraction such as the
 * notes' 1e-10; v0.17.0 read the keys without a type check (`get_scalar_param`)
 * and took any positive number.
 * @param release "current" or "v0.17.0"
 * @returns the zod schema; `safeParse` reports messages such as `fp16.loss_scale_window must be an integer >= 1, got -5`
 * @throws {RangeError} `release must be one of current, v0.17.0, got v1`
 * @example fp16BlockSchema("current").safeParse({ enabled: true, min_loss_scale: 1e-10 }).success // false
 * @example fp16BlockSchema("v0.17.0").safeParse({ enabled: true, min_loss_scale: 1e-10 }).success // true
 * @see deepspeedai/DeepSpeed deepspeed/runtime/precision_config.py at edaa722 (`min_loss_scale: int = 1`); v0.17.0 deepspeed/runtime/config.py `get_dynamic_loss_scale_args`
 */
export function fp16BlockSchema(release: DeepSpeedRelease) {
  if (!DEEPSPEED_RELEASES.includes(release)) throw new RangeError(`release must be one of ${DEEPSPEED_RELEASES.join(", ")}, got ${String(release)}`);
  return z.strictObject({
    enabled: z.boolean({ error: "fp16.enabled must be true or false (\"auto\" is resolved by the HF Trainer before DeepSpeed sees it)" }).default(false),
    auto_cast: z.boolean().default(false),
    loss_scale: z.number({ error: (i) => `fp16.loss_scale must be a finite number >= 0, got ${String(i.input)}` }).refine((v) => Number.isFinite(v) && v >= 0, { error: (i) => `fp16.loss_scale must be a finite number >= 0 (0 enables dynamic loss scaling), got ${String(i.input)}` }).default(0),
    initial_scale_power: z.number().refine((v) => Number.isInteger(v) && v >= 0 && v <= 127, { error: (i) => `fp16.initial_scale_power must be an integer in [0, 127], got ${String(i.input)}` }).default(16),
    loss_scale_window: posInt("loss_scale_window").default(1000),
    hysteresis: posInt("hysteresis").default(2),
    consecutive_hysteresis: z.boolean().default(false),
    min_loss_scale: (release === "current" ? positiveInt("min_loss_scale", "(DeepSpeedFP16Config declares it int since v0.17.1)") : positive("min_loss_scale")).default(1),
    fp16_master_weights_and_grads: z.boolean().default(false),
  });
}

/**
 * The fp16 block schema of current DeepSpeed ({@link fp16BlockSchema}("current")).
 * @example
 * Fp16BlockSchema.parse({ enabled: true }).initial_scale_power; // 16
 * Fp16BlockSchema.safeParse({ enabled: true, hysteresis: 0 }).success; // false
 * @see deepspeedai/DeepSpeed deepspeed/runtime/precision_config.py; https://www.deepspeed.ai/docs/config-json/#fp16-training-options
 */
export const Fp16BlockSchema = fp16BlockSchema("current");

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
  /** The release whose parsing and scaler this is. */
  release: DeepSpeedRelease;
  /**
   * Options of the DynamicLossScaler that this release's ZeRO optimizer builds (kind "dynamic"):
   * the block's values; in v0.17.0, when `keysSet` is empty, `DynamicLossScaler()`'s own defaults ({@link LEGACY_DYNAMIC_DEFAULTS}).
   */
  scaler: DynamicLossScalerOptions;
}

/**
 * `DynamicLossScaler()`'s own constructor defaults in DeepSpeed v0.17.0 (removed by #6976 in v0.17.1):
 * 2^32, window 1000, min 1, no hysteresis (delayed_shift 1), with v0.17.0's growth rule. v0.17.0's
 * `CreateLossScaler` built it when the fp16 block set none of {@link SCALER_KEYS} (`dynamic_loss_args` None).
 *
 * @example
 * LEGACY_DYNAMIC_DEFAULTS.initScale; // 4294967296 (2^32)
 * @see deepspeedai/DeepSpeed v0.17.0 deepspeed/runtime/fp16/loss_scaler.py `DynamicLossScaler.__init__` (default arguments) and `CreateLossScaler`
 */
export const LEGACY_DYNAMIC_DEFAULTS: Readonly<DynamicLossScalerOptions> = Object.freeze({ initScale: 2 ** 32, scaleWindow: 1000, minScale: 1, delayedShift: 1, consecutiveHysteresis: false, release: "v0.17.0" as const });

/**
 * Parses the `fp16` block of a DeepSpeed config.
 *
 * `"enabled": "auto"` is what the Hugging Face Trainer fills in before
 * DeepSpeed reads the config: `fp16.enabled ← args.fp16 or args.fp16_full_eval`
 * (`HfTrainerDeepSpeedConfig.trainer_config_process`). Without Trainer args,
 * "auto" is an error here. DeepSpeed itself (main, `DeepSpeedConfigModel` built
 * non-strict) silently drops keys whose value is "auto", so `enabled` would take
 * its default and fp16 would be off; the course asks for the Trainer's flags
 * rather than guess.
 *
 * @param config a whole DeepSpeed config (object); a missing `fp16` block means fp16 off
 * @param trainer the Trainer's precision flags, to resolve `"auto"`
 * @param release "current" (DeepSpeed ≥ 0.17.1, default) or "v0.17.0" ({@link DeepSpeedRelease})
 * @returns {@link Fp16Settings}
 * @throws {TypeError} `fp16.loss_scale_window must be an integer >= 1, got -5` (every problem, one per line);
 *   on "current", `fp16.min_loss_scale must be an integer >= 1 (DeepSpeedFP16Config declares it int since v0.17.1), got 1e-10`
 * @example parseDeepSpeedFp16({fp16: {enabled: "auto", loss_scale: 0, loss_scale_window: 100, initial_scale_power: 16, hysteresis: 2, min_loss_scale: 1e-10}}, {fp16: true}, "v0.17.0").scaler
 * // {initScale: 65536, scaleWindow: 100, minScale: 1e-10, delayedShift: 2, consecutiveHysteresis: false, raiseErrorAtMinScale: true, release: "v0.17.0"}
 * @see deepspeedai/DeepSpeed deepspeed/runtime/precision_config.py; https://www.deepspeed.ai/docs/config-json/#fp16-training-options; huggingface/transformers src/transformers/integrations/deepspeed.py
 */
export function parseDeepSpeedFp16(config: unknown, trainer?: HfTrainerPrecisionArgs, release: DeepSpeedRelease = "current"): Fp16Settings {
  const schema = fp16BlockSchema(release);
  if (typeof config !== "object" || config === null || Array.isArray(config)) throw new TypeError(`config must be a DeepSpeed config object, got ${Array.isArray(config) ? "an array" : typeof config}`);
  const raw = (config as Record<string, unknown>).fp16 ?? {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new TypeError(`fp16 must be an object, got ${JSON.stringify(raw)}`);
  const block: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  if (block.enabled === "auto") {
    if (!trainer) throw new TypeError(`fp16.enabled is "auto": only the Hugging Face Trainer resolves it (from --fp16 / --fp16_full_eval); pass the Trainer's flags`);
    block.enabled = Boolean(trainer.fp16 || trainer.fp16FullEval);
  }
  const parsed = schema.safeParse(block);
  if (!parsed.success) throw new TypeError(parsed.error.issues.map((i) => (i.code === "unrecognized_keys" ? `fp16 has unknown keys: ${i.keys.join(", ")}` : i.message)).join("\n"));
  const b = parsed.data;
  const kind = !b.enabled ? "none" : b.loss_scale === 0 ? "dynamic" : "static";
  const keysSet = SCALER_KEYS.filter((k) => k in block);
  const fromBlock: DynamicLossScalerOptions = { initScale: 2 ** b.initial_scale_power, scaleWindow: b.loss_scale_window, minScale: b.min_loss_scale, delayedShift: b.hysteresis, consecutiveHysteresis: b.consecutive_hysteresis, raiseErrorAtMinScale: true, release };
  return { block: b, kind, keysSet, release, scaler: release === "v0.17.0" && keysSet.length === 0 ? { ...LEGACY_DYNAMIC_DEFAULTS, raiseErrorAtMinScale: true } : fromBlock };
}

/**
 * The loss scaler DeepSpeed's ZeRO optimizer creates for these settings
 * (`CreateLossScaler`): dynamic for fp16 with loss_scale 0 (with the options and
 * growth rule of `settings.release`), static `loss_scale` for fp16 otherwise,
 * static 1.0 when fp16 is off.
 * @param settings from {@link parseDeepSpeedFp16}
 * @returns a {@link DynamicLossScaler} (kind "dynamic") or a static {@link LossScaler}
 * @throws {RangeError} the constructors' messages, e.g. `scale must be a positive finite number, got 0` (not reachable from a parsed block)
 * @example createLossScaler(parseDeepSpeedFp16({fp16: {enabled: true, loss_scale: 128}})).lossScale // 128
 * @example createLossScaler(parseDeepSpeedFp16({fp16: {enabled: true}}, undefined, "v0.17.0")).lossScale // 4294967296 (2^32)
 * @see deepspeedai/DeepSpeed deepspeed/runtime/fp16/loss_scaler.py `CreateLossScaler` (main and v0.17.0)
 */
export function createLossScaler(settings: Fp16Settings): DynamicLossScaler | LossScaler {
  if (settings.kind === "none") return new LossScaler(1.0);
  if (settings.kind === "static") return new LossScaler(settings.block.loss_scale);
  return new DynamicLossScaler(settings.scaler);
}

/** What {@link fp16Summary} reports: plain data (JSON), so a build can compute it and a page show it without zod. */
export type Fp16Summary =
  | { ok: true; release: DeepSpeedRelease; kind: Fp16Settings["kind"]; keysSet: string[]; scaler: DynamicLossScalerOptions | null; staticScale: number | null }
  | { ok: false; release: DeepSpeedRelease; error: string };

/**
 * Parses a DeepSpeed config for one release and says which loss scaler it
 * configures, as plain data: the options of the dynamic scaler, or the static
 * scale, or the parse error's message (never throws for a bad config).
 * @param config a whole DeepSpeed config (object)
 * @param trainer the HF Trainer's precision flags, to resolve `"auto"`
 * @param release "current" (default) or "v0.17.0"
 * @returns {@link Fp16Summary}
 * @throws {RangeError} only for an unknown release: `release must be one of current, v0.17.0, got v1`
 * @example fp16Summary({fp16: {enabled: true, min_loss_scale: 1e-10}}).ok // false (min_loss_scale is an int on current DeepSpeed)
 * @example fp16Summary({fp16: {enabled: true, loss_scale: 128}}, undefined, "v0.17.0") // {ok: true, release: "v0.17.0", kind: "static", keysSet: [], scaler: null, staticScale: 128}
 * @see deepspeedai/DeepSpeed deepspeed/runtime/precision_config.py, deepspeed/runtime/fp16/loss_scaler.py `CreateLossScaler`
 */
export function fp16Summary(config: unknown, trainer?: HfTrainerPrecisionArgs, release: DeepSpeedRelease = "current"): Fp16Summary {
  if (!DEEPSPEED_RELEASES.includes(release)) throw new RangeError(`release must be one of ${DEEPSPEED_RELEASES.join(", ")}, got ${String(release)}`);
  let s: Fp16Settings;
  try {
    s = parseDeepSpeedFp16(config, trainer, release);
  } catch (e) {
    return { ok: false, release, error: (e as Error).message };
  }
  const sc = createLossScaler(s);
  return { ok: true, release, kind: s.kind, keysSet: s.keysSet, scaler: sc instanceof DynamicLossScaler ? { ...sc.options } : null, staticScale: sc instanceof LossScaler ? sc.lossScale : null };
}
