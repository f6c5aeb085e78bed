/**
 * An `accelerate config` file (YAML, or JSON) read as `accelerate launch`
 * reads it (accelerate 16cb6eb, 1.15.0.dev0): the top-level keys of
 * `ClusterConfig`, and the FSDP plugin's settings from `fsdp_config`.
 */
import { parse as parseYaml } from "yaml";
import type { FsdpStrategy } from "./fsdpStrategy.js";
import { isObj, type Json } from "./zodIssues.js";

/** ClusterConfig's fields (plus the legacy `fp16` and `dynamo_backend` that `process_config` converts). */
const CLUSTER_KEYS = ["compute_environment", "distributed_type", "mixed_precision", "use_cpu", "debug", "num_processes", "machine_rank", "num_machines", "gpu_ids",
  "main_process_ip", "main_process_port", "rdzv_backend", "same_network", "main_training_function", "enable_cpu_affinity", "fp8_config", "deepspeed_config",
  "fsdp_config", "parallelism_config", "megatron_lm_config", "mpirun_config", "downcast_bf16", "tpu_name", "tpu_zone", "tpu_use_cluster", "tpu_use_sudo",
  "command_file", "commands", "tpu_vm", "tpu_env", "dynamo_config", "fp16", "dynamo_backend"];

/** `accelerate launch`'s FSDP arguments (the keys of fsdp_config, with their `fsdp_` prefix). */
const FSDP_ARGS = ["fsdp_version", "fsdp_offload_params", "fsdp_min_num_params", "fsdp_sharding_strategy", "fsdp_reshard_after_forward", "fsdp_auto_wrap_policy",
  "fsdp_transformer_layer_cls_to_wrap", "fsdp_backward_prefetch", "fsdp_state_dict_type", "fsdp_forward_prefetch", "fsdp_use_orig_params",
  "fsdp_cpu_ram_efficient_loading", "fsdp_sync_module_states", "fsdp_activation_checkpointing", "fsdp_ignored_modules"];

/** torch.distributed.fsdp.ShardingStrategy in enum order: FULL_SHARD = 1 … HYBRID_SHARD_ZERO2 = 5 (accelerate's FSDP_SHARDING_STRATEGY). */
const STRATEGIES = ["FULL_SHARD", "SHARD_GRAD_OP", "NO_SHARD", "HYBRID_SHARD", "HYBRID_SHARD_ZERO2"] as const;

/** What an accelerate config asks for. */
export interface AccelerateSetup {
  distributedType: "FSDP" | "DEEPSPEED" | "MULTI_GPU" | "NO";
  /** "no" | "fp16" | "bf16" | "fp8" (accelerate's PrecisionType), or null when the file does not say. */
  mixedPrecision: "no" | "fp16" | "bf16" | "fp8" | null;
  numProcesses: number | null;
  numMachines: number;
  /** FSDP only: the effective strategy, the version, CPU offload (parameters, gradients and the optimizer step) and activation checkpointing. */
  fsdp: { strategy: FsdpStrategy | "HYBRID_SHARD_ZERO2"; version: 1 | 2; offloadParams: boolean; activationCheckpointing: boolean } | null;
  /** DEEPSPEED only: the deepspeed_config block (zero_stage, offload devices, or a deepspeed_config_file). */
  deepspeed: Json | null;
  /** Keys accelerate does not read inside fsdp_config (ignored), and what the course does not model. */
  notes: string[];
}

/** accelerate's `str_to_bool` (utils/environment.py): y/yes/t/true/on/1, n/no/f/false/off/0, any case. */
function strToBool(key: string, v: unknown): boolean {
  const s = String(v).toLowerCase();
  if (["y", "yes", "t", "true", "on", "1"].includes(s)) return true;
  if (["n", "no", "f", "false", "off", "0"].includes(s)) return false;
  throw new TypeError(`fsdp_config.${key}: invalid truth value ${JSON.stringify(v)} (accelerate's str_to_bool: true/false, yes/no, on/off, 1/0)`);
}

/** A strategy as the FSDP1 plugin converts it: a name (any case) or its enum number 1–5 (the integer older `accelerate config` wrote). */
function strategy(key: string, v: unknown): (typeof STRATEGIES)[number] {
  const s = String(v).trim();
  const byName = STRATEGIES.indexOf(s.toUpperCase() as (typeof STRATEGIES)[number]);
  if (byName >= 0) return STRATEGIES[byName];
  if (/^\d+$/.test(s)) {
    const n = Number(s);
    if (n >= 1 && n <= 5) return STRATEGIES[n - 1];
    throw new RangeError(`fsdp_config.${key}: ${n} is not a valid ShardingStrategy (1 FULL_SHARD, 2 SHARD_GRAD_OP, 3 NO_SHARD, 4 HYBRID_SHARD, 5 HYBRID_SHARD_ZERO2)`);
  }
  throw new RangeError(`fsdp_config.${key}: ${JSON.stringify(v)} is not a ShardingStrategy (one of ${STRATEGIES.join(", ")}, or 1–5)`);
}

/**
 * Reads an accelerate config file. YAML is read with YAML 1.1 rules, as
 * PyYAML's `safe_load` does (unquoted yes/no/on/off are booleans). Unknown
 * top-level keys are refused ("had unknown keys", `BaseConfig.from_yaml_file`);
 * keys of `fsdp_config` without the `fsdp_` prefix get it (`_validate_launch_command`);
 * keys `accelerate launch` has no argument for are ignored (reported).
 * FSDP1: the strategy is `fsdp_sharding_strategy` (a name, or the integer 1–5
 * older `accelerate config` wrote: 1 FULL_SHARD, 2 SHARD_GRAD_OP, 3 NO_SHARD,
 * 4 HYBRID_SHARD, 5 HYBRID_SHARD_ZERO2), defaulting to the launcher's
 * FULL_SHARD. FSDP2: `fsdp_reshard_after_forward` true ≈ FULL_SHARD, false ≈ SHARD_GRAD_OP.
 *
 * @param text the file's text (YAML or JSON)
 * @param path the path as typed, quoted in messages
 * @returns {@link AccelerateSetup}
 * @throws TypeError `config.yaml: The config file at config.yaml had unknown keys (['fsdp_sharding']) …`;
 *   RangeError `fsdp_config.fsdp_sharding_strategy: 7 is not a valid ShardingStrategy (1 FULL_SHARD, …)`;
 *   `When using --fsdp_cpu_ram_efficient_loading set --fsdp_sync_module_states to True` (accelerate's words)
 * @example readAccelerateConfig("distributed_type: FSDP\nfsdp_config:\n  fsdp_sharding_strategy: 1\n", "a.yaml").fsdp?.strategy // "FULL_SHARD"
 * @see huggingface/accelerate at 16cb6eb: commands/config/config_args.py (BaseConfig, ClusterConfig), commands/launch.py (FSDP arguments,
 *   _validate_launch_command), utils/launch.py (prepare_multi_gpu_env), utils/dataclasses.py (FullyShardedDataParallelPlugin.__post_init__);
 *   0c6bdc2 (2022) for the integer fsdp_sharding_strategy
 */
export function readAccelerateConfig(text: string, path: string): AccelerateSetup {
  let raw: unknown;
  try { raw = /^\s*\{/.test(text) ? JSON.parse(text) : parseYaml(text, { version: "1.1" }); } catch (e) { throw new TypeError(`${path}: not valid YAML or JSON: ${(e as Error).message.split("\n")[0]}`); }
  if (!isObj(raw)) throw new TypeError(`${path}: an accelerate config must be a mapping of keys, got ${JSON.stringify(raw)}`);
  const extra = Object.keys(raw).filter((k) => !CLUSTER_KEYS.includes(k)).sort();
  if (extra.length) throw new TypeError(`${path}: The config file at ${path} had unknown keys (${JSON.stringify(extra)}), please try upgrading your \`accelerate\` version or fix (and potentially remove) these keys from your config file (accelerate's words)`);
  if (raw.compute_environment !== undefined && raw.compute_environment !== "LOCAL_MACHINE") throw new RangeError(`${path}: compute_environment ${JSON.stringify(raw.compute_environment)} is not modelled (LOCAL_MACHINE only)`);
  if (raw.distributed_type === undefined) throw new TypeError(`${path}: A \`distributed_type\` must be specified in the config file (accelerate's words)`);
  const dt = String(raw.distributed_type);
  if (!["FSDP", "DEEPSPEED", "MULTI_GPU", "NO"].includes(dt)) throw new RangeError(`${path}: distributed_type ${dt} is not modelled (FSDP, DEEPSPEED, MULTI_GPU or NO)`);
  const mp = raw.mixed_precision ?? (raw.fp16 ? "fp16" : null);
  if (mp !== null && !["no", "fp16", "bf16", "fp8"].includes(String(mp))) throw new RangeError(`${path}: mixed_precision must be no, fp16, bf16 or fp8, got ${JSON.stringify(mp)}`);
  const notes: string[] = [];
  const np = raw.num_processes === undefined ? null : Number(raw.num_processes);
  if (np !== null && !(Number.isInteger(np) && (np >= 1 || np === -1))) throw new RangeError(`${path}: num_processes must be an integer >= 1, got ${JSON.stringify(raw.num_processes)}`);
  const setup: AccelerateSetup = { distributedType: dt as AccelerateSetup["distributedType"], mixedPrecision: mp as AccelerateSetup["mixedPrecision"], numProcesses: np === -1 ? null : np, numMachines: Number(raw.num_machines ?? 1), fsdp: null, deepspeed: null, notes };
  if (dt === "DEEPSPEED") setup.deepspeed = isObj(raw.deepspeed_config) ? raw.deepspeed_config : {};
  if (dt !== "FSDP") return setup;
  const fc: Json = {};
  for (const [k, v] of Object.entries(isObj(raw.fsdp_config) ? raw.fsdp_config : {})) fc[k.startsWith("fsdp") ? k : `fsdp_${k}`] = v;
  for (const k of Object.keys(fc)) if (!FSDP_ARGS.includes(k)) notes.push(`fsdp_config.${k}: accelerate launch has no such argument; it is ignored`);
  const version = Number(fc.fsdp_version ?? 1);
  if (version !== 1 && version !== 2) throw new RangeError(`fsdp_config.fsdp_version must be 1 or 2, got ${JSON.stringify(fc.fsdp_version)}`);
  const bool = (k: string, d: string) => strToBool(k, fc[k] ?? d);
  if (bool("fsdp_cpu_ram_efficient_loading", "true") && !bool("fsdp_sync_module_states", "true")) throw new RangeError("When using `--fsdp_cpu_ram_efficient_loading` set `--fsdp_sync_module_states` to `True` (accelerate's words)");
  let s: (typeof STRATEGIES)[number];
  if (version === 1) {
    s = strategy("fsdp_sharding_strategy", fc.fsdp_sharding_strategy ?? "FULL_SHARD");
    if (typeof fc.fsdp_sharding_strategy === "number") notes.push(`fsdp_config.fsdp_sharding_strategy: ${fc.fsdp_sharding_strategy} is the integer older accelerate config wrote; the plugin reads it as ShardingStrategy(${fc.fsdp_sharding_strategy}) = ${s}`);
    if (fc.fsdp_reshard_after_forward !== undefined && typeof fc.fsdp_reshard_after_forward !== "boolean") {
      const r = strategy("fsdp_reshard_after_forward", fc.fsdp_reshard_after_forward);
      if (r !== s) notes.push(`fsdp_config.fsdp_reshard_after_forward is ${r} but FSDP1 takes the strategy from fsdp_sharding_strategy (${fc.fsdp_sharding_strategy === undefined ? "absent: accelerate launch passes its default FULL_SHARD" : s}), which the plugin reads first (FullyShardedDataParallelPlugin.__post_init__ at 16cb6eb): the run uses ${s}`);
    }
  } else {
    s = bool("fsdp_reshard_after_forward", "true") ? "FULL_SHARD" : "SHARD_GRAD_OP";
    if (fc.fsdp_sharding_strategy !== undefined) notes.push("fsdp_config.fsdp_sharding_strategy is ignored with fsdp_version 2 (FSDP2 has reshard_after_forward instead)");
  }
  setup.fsdp = { strategy: s, version, offloadParams: bool("fsdp_offload_params", "false"), activationCheckpointing: bool("fsdp_activation_checkpointing", "false") };
  return setup;
}
