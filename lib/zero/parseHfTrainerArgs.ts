/**
 * The Hugging Face Trainer's sharding arguments: `--deepspeed`, `--fsdp`, `--fsdp_config`.
 */
import { z } from "zod";
import type { FsdpStrategy } from "./fsdpStrategy.js";
import type { WrapPolicy } from "./wrapUnits.js";

/** What the Trainer's sharding flags ask for. */
export interface HfShardingArgs {
  /** Path of the DeepSpeed config (`--deepspeed`), or null. */
  deepspeed: string | null;
  /** The FSDP strategy from `--fsdp`, or null without FSDP. */
  fsdp: FsdpStrategy | null;
  /** `--fsdp "… offload"`: parameters and gradients offloaded to the CPU. */
  fsdpOffload: boolean;
  /** The wrapping: "root" without auto_wrap; by layer class or by size with it. */
  wrap: WrapPolicy;
  /** Path of `--fsdp_config`, or null. */
  fsdpConfigPath: string | null;
}

const FSDP_WORDS: Record<string, FsdpStrategy | "offload" | "auto_wrap"> = { full_shard: "FULL_SHARD", shard_grad_op: "SHARD_GRAD_OP", no_shard: "NO_SHARD", hybrid_shard: "HYBRID_SHARD", offload: "offload", auto_wrap: "auto_wrap" };

const fsdpConfigSchema = z.strictObject({
  min_num_params: z.number().int().min(1).optional(),
  transformer_layer_cls_to_wrap: z.union([z.string(), z.array(z.string())]).optional(),
  backward_prefetch: z.enum(["backward_pre", "backward_post", "no_prefetch"]).optional(),
  forward_prefetch: z.boolean().optional(),
  limit_all_gathers: z.boolean().optional(),
  use_orig_params: z.boolean().optional(),
  sync_module_states: z.boolean().optional(),
  cpu_ram_efficient_loading: z.boolean().optional(),
  activation_checkpointing: z.boolean().optional(),
});

/**
 * Parses the Trainer's `--deepspeed`, `--fsdp` and `--fsdp_config` flags (other flags are left to the caller).
 * `--fsdp` takes space-separated words (full_shard, shard_grad_op, no_shard, hybrid_shard, offload, auto_wrap).
 * The `--fsdp_config` object (its keys with or without the `fsdp_` prefix, as the Trainer accepts) decides
 * the auto-wrap policy: min_num_params → by size, transformer_layer_cls_to_wrap → by layer (the two exclude each other).
 *
 * @param argv the arguments, e.g. ["--fsdp", "full_shard auto_wrap", "--fsdp_config", "fsdp.json"]
 * @param readFsdpConfig returns the parsed JSON of the `--fsdp_config` path (default: none given → error if the flag is used)
 * @returns {@link HfShardingArgs}
 * @throws RangeError `--fsdp: unknown option "zero3" (one of full_shard, shard_grad_op, no_shard, hybrid_shard, offload, auto_wrap)`;
 *   `--deepspeed and --fsdp exclude each other`; `--fsdp_config: min_num_params and transformer_layer_cls_to_wrap exclude each other`;
 *   TypeError `--fsdp_config: unknown key "fsdp_foo"`
 * @example parseHfTrainerArgs(["--fsdp", "full_shard auto_wrap"]).fsdp // "FULL_SHARD"
 * @see transformers TrainingArguments docs (fsdp, fsdp_config, deepspeed); transformers trainer.py / accelerate FSDP plugin (auto-wrap policy)
 */
export function parseHfTrainerArgs(argv: readonly string[], readFsdpConfig?: (path: string) => unknown): HfShardingArgs {
  const value = (flag: string) => {
    const i = argv.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
    if (i < 0) return null;
    const v = argv[i].includes("=") ? argv[i].slice(flag.length + 1) : argv[i + 1];
    if (v === undefined || v.startsWith("--")) throw new RangeError(`${flag} needs a value`);
    return v.replace(/^['"‘’]|['"‘’]$/g, "");
  };
  const deepspeed = value("--deepspeed"), fsdpText = value("--fsdp"), fsdpConfigPath = value("--fsdp_config");
  if (deepspeed && fsdpText) throw new RangeError("--deepspeed and --fsdp exclude each other");
  let fsdp: FsdpStrategy | null = null, offload = false, autoWrap = false;
  for (const w of (fsdpText ?? "").split(/\s+/).filter(Boolean)) {
    if (w.toLowerCase() === "hybrid_shard_zero2") throw new RangeError("--fsdp: hybrid_shard_zero2 (SHARD_GRAD_OP inside a node) is a real option but not modelled by the course");
    const m = FSDP_WORDS[w.toLowerCase()];
    if (!m) throw new RangeError(`--fsdp: unknown option ${JSON.stringify(w)} (one of ${Object.keys(FSDP_WORDS).join(", ")})`);
    if (m === "offload") offload = true;
    else if (m === "auto_wrap") autoWrap = true;
    else if (fsdp) throw new RangeError(`--fsdp: two strategies, ${fsdp} and ${m}`);
    else fsdp = m;
  }
  if (fsdpText !== null && !fsdp) fsdp = "FULL_SHARD"; // accelerate's FullyShardedDataParallelPlugin default when only offload/auto_wrap are given
  let wrap: WrapPolicy = autoWrap ? "layer" : "root";
  if (fsdpConfigPath) {
    if (!fsdp) throw new RangeError("--fsdp_config without --fsdp");
    if (!readFsdpConfig) throw new RangeError(`--fsdp_config ${fsdpConfigPath}: no reader for the file`);
    const raw = readFsdpConfig(fsdpConfigPath);
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new TypeError(`--fsdp_config must hold a JSON object`);
    const stripped = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k.replace(/^fsdp_/, ""), v]));
    const r = fsdpConfigSchema.safeParse(stripped);
    if (!r.success) throw new TypeError(r.error.issues.map((i) => i.code === "unrecognized_keys" ? `--fsdp_config: unknown key ${i.keys.map((k) => JSON.stringify(k)).join(", ")}` : `--fsdp_config: ${i.path.join(".")}: ${i.message}`).join("\n"));
    if (r.data.min_num_params !== undefined && r.data.transformer_layer_cls_to_wrap !== undefined) throw new RangeError("--fsdp_config: min_num_params and transformer_layer_cls_to_wrap exclude each other");
    if (r.data.min_num_params !== undefined) wrap = autoWrap ? { minNumParams: r.data.min_num_params } : wrap;
  }
  return { deepspeed, fsdp, fsdpOffload: offload, wrap, fsdpConfigPath };
}
