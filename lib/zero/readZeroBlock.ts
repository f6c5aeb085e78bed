/**
 * The `zero_optimization` block read as DeepSpeed's `DeepSpeedZeroConfig`
 * reads it: aliases under both names, deprecated fields mapped to their
 * replacements, "auto" dropped, unknown keys refused.
 */
import { z } from "zod";
import { didYouMean } from "../suggest.js";
import { LEGACY_KEYS, ZERO_ALIASES, ZERO_NOT_MODELLED } from "./deepSpeedKeys.js";
import { laxBool, laxInt, zeroModelledSchema } from "./deepSpeedSchema.js";
import { issuesMessage, isObj, type Json } from "./zodIssues.js";

/** Where the reader writes what it did. */
export interface ZeroBlockReport { notes: string[]; notModelled: string[]; deprecated: string[] }

const ZERO_KEYS = [...Object.keys(zeroModelledSchema.shape), ...Object.keys(ZERO_NOT_MODELLED), ...Object.keys(ZERO_ALIASES), ...Object.keys(LEGACY_KEYS).filter((k) => LEGACY_KEYS[k].block === "zero_optimization")];

/**
 * Reads `zero_optimization` (absent: stage 0 with the defaults).
 * Steps, as DeepSpeed at edaa722: a value "auto" left after the Trainer's
 * filling is dropped, so the default applies (`DeepSpeedConfigModel.__init__`,
 * non-strict); a field may be given by its name or its `stage3_` alias
 * (`populate_by_name=True`); deprecated fields set their replacement and may
 * not be given with it (`_process_deprecated_field`); any other key is an error
 * (`extra="forbid"`); fields the course does not model are type-checked and reported.
 * @param block the raw block
 * @param report receives notes, not-modelled keys and deprecated keys
 * @returns the modelled fields, typed, with defaults
 * @throws TypeError `zero_optimization: unknown key "stage4_foo" (DeepSpeedZeroConfig forbids extra fields)`; RangeError for a deprecated key given with its replacement
 * @example readZeroBlock({ stage: 2, cpu_offload: true }, report).data.offload_optimizer?.device // "cpu"
 * @see deepspeed/runtime/zero/config.py (DeepSpeedZeroConfig), deepspeed/runtime/config_utils.py (DeepSpeedConfigModel) at edaa722
 */
export function readZeroBlock(block: unknown, report: ZeroBlockReport): { data: z.infer<typeof zeroModelledSchema> } {
  if (block !== undefined && !isObj(block)) throw new TypeError(`zero_optimization must be an object (or the deprecated true/false), got ${JSON.stringify(block)}`);
  const zo: Json = {};
  for (const [k, v] of Object.entries(block ?? {})) {
    if (v === "auto") { report.notes.push(`zero_optimization.${k} is "auto" and nothing fills it: DeepSpeed drops it and uses the default`); continue; }
    const name = ZERO_ALIASES[k] ?? k;
    if (name in zo) { report.notes.push(`zero_optimization: ${k} and ${name} both given; pydantic reads the alias ${name}`); if (k !== name) continue; }
    zo[name] = v;
  }
  if (typeof zo.stage === "string" || typeof zo.stage === "boolean") {
    report.notes.push(`zero_optimization.stage is ${JSON.stringify(zo.stage)}, not a number: DeepSpeed reads it as a stage (pydantic's lax int), but the Hugging Face Trainer compares it with 3 (HfDeepSpeedConfig.is_zero3), so under the Trainer a stage 3 gets no zero.Init and no stage-3 "auto" values: write the number`);
  }
  const unknown = Object.keys(zo).filter((k) => !ZERO_KEYS.includes(k));
  if (unknown.length) throw new TypeError(`zero_optimization: unknown key${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => JSON.stringify(k)).join(", ")} (DeepSpeedZeroConfig forbids extra fields)${didYouMean(unknown[0], ZERO_KEYS)}`);
  const legacy = (key: string, replacement: string, value: unknown) => {
    if (!(key in zo)) return;
    if (replacement in zo) throw new RangeError(`zero_optimization: ${key} and ${replacement} are both given (DeepSpeed: "Cannot provide deprecated parameter '${key}' and replacing parameter '${replacement}' together")`);
    report.deprecated.push(`zero_optimization.${key} → ${replacement}: ${LEGACY_KEYS[key].effect}`);
    delete zo[key];
    if (value !== undefined) zo[replacement] = value;
  };
  const on = (k: string) => laxBool.safeParse(zo[k]).data === true;
  legacy("cpu_offload", "offload_optimizer", on("cpu_offload") ? { device: "cpu" } : undefined);
  legacy("cpu_offload_param", "offload_param", on("cpu_offload_param") ? { device: "cpu" } : undefined);
  if ("cpu_offload_use_pin_memory" in zo) { report.deprecated.push(`zero_optimization.cpu_offload_use_pin_memory: ${LEGACY_KEYS.cpu_offload_use_pin_memory.effect}`); delete zo.cpu_offload_use_pin_memory; }
  legacy("stage3_gather_fp16_weights_on_model_save", "stage3_gather_16bit_weights_on_model_save", zo.stage3_gather_fp16_weights_on_model_save);
  for (const [k, kind] of Object.entries(ZERO_NOT_MODELLED)) {
    if (!(k in zo)) continue;
    const check = kind === "bool" ? laxBool : kind === "int" ? laxInt(k === "mics_shard_size" ? -1 : 0) : z.record(z.string(), z.unknown());
    const r = check.safeParse(zo[k]);
    if (!r.success) throw new TypeError(issuesMessage(r.error.issues, `zero_optimization.${k}`));
    report.notModelled.push(`zero_optimization.${k}`);
    delete zo[k];
  }
  const parsed = zeroModelledSchema.safeParse(zo);
  if (!parsed.success) throw new TypeError(issuesMessage(parsed.error.issues, "zero_optimization"));
  return { data: parsed.data };
}
