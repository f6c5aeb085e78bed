/**
 * The Hugging Face Trainer's `--fsdp_config` JSON, read as
 * `TrainingArguments._process_fsdp_args` (transformers 00349ae) reads it.
 */
import { isObj, type Json } from "./zodIssues.js";

/** What an `--fsdp_config` file sets, as the Trainer reads it. */
export interface HfFsdpConfig {
  /** `version`: 1 (FullyShardedDataParallel) or 2 (fully_shard). */
  version: 1 | 2;
  /** FSDP2's `reshard_after_forward` (true ≈ FULL_SHARD, false ≈ SHARD_GRAD_OP); for FSDP1 a strategy name, or null when absent. */
  reshardAfterForward: boolean | string | null;
  minNumParams: number;
  transformerLayerClsToWrap: string[] | null;
  backwardPrefetch: "BACKWARD_PRE" | "BACKWARD_POST" | "NO_PREFETCH";
  forwardPrefetch: boolean;
  useOrigParams: boolean;
  syncModuleStates: boolean;
  cpuRamEfficientLoading: boolean;
  /** Read raw by the Trainer (`fsdp_config.get("activation_checkpointing")`): any truthy value, even the string "false", turns it on. */
  activationCheckpointing: boolean;
  /** Keys the Trainer does not read (it ignores them), with a suggestion. */
  ignored: string[];
  notes: string[];
}

const KNOWN = ["version", "reshard_after_forward", "min_num_params", "transformer_layer_cls_to_wrap", "backward_prefetch", "forward_prefetch", "use_orig_params",
  "sync_module_states", "cpu_ram_efficient_loading", "activation_checkpointing", "limit_all_gathers", "xla", "xla_fsdp_v2", "xla_fsdp_grad_ckpt", "xla_fsdp_settings"];

/**
 * transformers' `str_to_bool`: y/yes/t/true/on/1 and n/no/f/false/off/0, any case; the Trainer applies it to `str(value).lower()`.
 * @param key the key, for the message
 * @param v the value (true, "true", "True", 1 …)
 * @returns the boolean
 * @throws TypeError `fsdp_config.use_orig_params: invalid truth value "maybe" (transformers' str_to_bool: true/false, yes/no, on/off, 1/0, t/f, y/n)`
 * @example strToBool("forward_prefetch", "True") // true
 * @see transformers src/transformers/training_args.py `str_to_bool` at 00349ae
 */
export function strToBool(key: string, v: unknown): boolean {
  const s = String(v).toLowerCase();
  if (["y", "yes", "t", "true", "on", "1"].includes(s)) return true;
  if (["n", "no", "f", "false", "off", "0"].includes(s)) return false;
  throw new TypeError(`fsdp_config.${key}: invalid truth value ${JSON.stringify(v)} (transformers' str_to_bool: true/false, yes/no, on/off, 1/0, t/f, y/n)`);
}

/**
 * Reads an `--fsdp_config` object as the Trainer does: keys with an `fsdp_`
 * prefix lose it; booleans go through `str_to_bool(str(v).lower())`, so
 * `"true"`, `"True"` and `true` are the same; `transformer_layer_cls_to_wrap`
 * may be a string or a list; `min_num_params` > 0 and
 * `transformer_layer_cls_to_wrap` exclude each other; `sync_module_states`
 * "false" with `cpu_ram_efficient_loading` "true" is refused; keys it does not
 * read are ignored (reported here).
 * @param raw the parsed JSON
 * @returns {@link HfFsdpConfig}
 * @throws TypeError `--fsdp_config must hold a JSON object`; `fsdp_config.version must be 1 or 2, got 3`;
 *   RangeError `min_num_params and transformer_layer_cls_to_wrap are mutually exclusive` (the Trainer's words)
 * @example readHfFsdpConfig({ fsdp_use_orig_params: "true", fsdp_transformer_layer_cls_to_wrap: "LlamaDecoderLayer" }).transformerLayerClsToWrap // ["LlamaDecoderLayer"]
 * @see transformers src/transformers/training_args.py `_process_fsdp_args` at 00349ae87eddc872ffa21a8a54f264375a0056a8;
 *   trainer.py `create_accelerator_and_postprocess` (activation_checkpointing, limit_all_gathers)
 */
export function readHfFsdpConfig(raw: unknown): HfFsdpConfig {
  if (!isObj(raw)) throw new TypeError("--fsdp_config must hold a JSON object");
  const c: Json = {};
  for (const [k, v] of Object.entries(raw)) c[k.startsWith("fsdp_") ? k.slice(5) : k] = v;
  const notes: string[] = [], ignored: string[] = [];
  for (const k of Object.keys(c)) if (!KNOWN.includes(k)) ignored.push(`fsdp_config.${k}: not a key the Trainer reads; it ignores it`);
  const version = c.version === undefined ? 1 : Number(c.version);
  if (version !== 1 && version !== 2) throw new TypeError(`fsdp_config.version must be 1 or 2, got ${JSON.stringify(c.version)}`);
  const minNumParams = c.min_num_params === undefined ? 0 : Number(c.min_num_params);
  if (!Number.isInteger(minNumParams) || minNumParams < 0) throw new TypeError(`fsdp_config.min_num_params must be an integer >= 0, got ${JSON.stringify(c.min_num_params)}`);
  const cls = c.transformer_layer_cls_to_wrap;
  if (cls !== undefined && cls !== null && typeof cls !== "string" && !(Array.isArray(cls) && cls.every((x) => typeof x === "string"))) {
    throw new TypeError(`fsdp_config.transformer_layer_cls_to_wrap must be a class name or a list of them, got ${JSON.stringify(cls)}`);
  }
  const transformerLayerClsToWrap = cls == null ? null : typeof cls === "string" ? [cls] : (cls as string[]);
  if (minNumParams > 0 && transformerLayerClsToWrap) throw new RangeError("fsdp_config: `min_num_params` and `transformer_layer_cls_to_wrap` are mutually exclusive (the Trainer's words)");
  const bool = (k: string, d: boolean) => (c[k] === undefined ? d : strToBool(k, c[k]));
  const prefetch = String(c.backward_prefetch ?? "NO_PREFETCH").toUpperCase();
  if (!["BACKWARD_PRE", "BACKWARD_POST", "NO_PREFETCH"].includes(prefetch)) throw new TypeError(`fsdp_config.backward_prefetch must be backward_pre, backward_post or no_prefetch, got ${JSON.stringify(c.backward_prefetch)}`);
  const syncModuleStates = bool("sync_module_states", true), cpuRamEfficientLoading = bool("cpu_ram_efficient_loading", false);
  if (!syncModuleStates && cpuRamEfficientLoading) throw new RangeError('fsdp_config: `sync_module_states` must be "True" if `cpu_ram_efficient_loading` is "True" (the Trainer\'s words)');
  const reshard = c.reshard_after_forward === undefined ? null : version === 2 ? strToBool("reshard_after_forward", c.reshard_after_forward) : String(c.reshard_after_forward).toUpperCase();
  const ac = c.activation_checkpointing;
  if (typeof ac === "string" && ac.toLowerCase() === "false") notes.push('fsdp_config.activation_checkpointing is the string "false": the Trainer reads it without str_to_bool, and a non-empty string is true in Python, so activation checkpointing is ON (write false, not "false")');
  if (c.xla !== undefined && strToBool("xla", c.xla)) notes.push("fsdp_config.xla: PyTorch/XLA FSDP (TPUs), not modelled");
  return {
    version, reshardAfterForward: reshard, minNumParams, transformerLayerClsToWrap, backwardPrefetch: prefetch as HfFsdpConfig["backwardPrefetch"],
    forwardPrefetch: bool("forward_prefetch", false), useOrigParams: bool("use_orig_params", true), syncModuleStates, cpuRamEfficientLoading,
    activationCheckpointing: Boolean(ac) && ac !== 0, ignored, notes,
  };
}
