/**
 * The Hugging Face Trainer's sharding arguments: `--deepspeed`, `--fsdp`, `--fsdp_config`.
 */
import type { FsdpStrategy } from "./fsdpStrategy.js";
import type { WrapPolicy } from "./wrapUnits.js";
import { readHfFsdpConfig, type HfFsdpConfig } from "./hfFsdpConfig.js";

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
  /** The `--fsdp_config` file as the Trainer reads it, or null. */
  fsdpConfig: HfFsdpConfig | null;
}

const FSDP_WORDS: Record<string, FsdpStrategy | "offload" | "auto_wrap"> = { full_shard: "FULL_SHARD", shard_grad_op: "SHARD_GRAD_OP", no_shard: "NO_SHARD", hybrid_shard: "HYBRID_SHARD", offload: "offload", auto_wrap: "auto_wrap" };

/**
 * The words of the Trainer's `--fsdp` (its `FSDPOption` values, lower case: `FSDPOption("FULL_SHARD")` raises),
 * with the Trainer's two refusals: `offload` alone, and `full_shard` with `shard_grad_op`.
 * @param text e.g. "full_shard auto_wrap"
 * @returns the strategy (FULL_SHARD, accelerate's default, when only auto_wrap is given), offload and auto_wrap
 * @throws RangeError `--fsdp: unknown option "FULL_SHARD" (FSDPOption values are lower case: full_shard)`; `--fsdp offload can't work on its own …`
 * @example fsdpWords("shard_grad_op offload") // { fsdp: "SHARD_GRAD_OP", offload: true, autoWrap: false }
 * @see transformers src/transformers/training_args.py `_process_fsdp_args`, trainer_utils.py `FSDPOption` at 00349ae
 */
export function fsdpWords(text: string): { fsdp: FsdpStrategy; offload: boolean; autoWrap: boolean } {
  let fsdp: FsdpStrategy | null = null, offload = false, autoWrap = false;
  for (const w of text.split(/\s+/).filter(Boolean)) {
    if (w === "hybrid_shard_zero2") throw new RangeError("--fsdp: hybrid_shard_zero2 (SHARD_GRAD_OP inside a node) is a real option but not modelled by the course");
    const m = FSDP_WORDS[w];
    if (!m) throw new RangeError(`--fsdp: unknown option ${JSON.stringify(w)} (${FSDP_WORDS[w.toLowerCase()] ? `FSDPOption values are lower case: ${w.toLowerCase()}` : `one of ${Object.keys(FSDP_WORDS).join(", ")}, hybrid_shard_zero2`})`);
    if (m === "offload") offload = true;
    else if (m === "auto_wrap") autoWrap = true;
    else if (fsdp) throw new RangeError(fsdp === "FULL_SHARD" && m === "SHARD_GRAD_OP" || fsdp === "SHARD_GRAD_OP" && m === "FULL_SHARD" ? "`--fsdp full_shard` is not compatible with `--fsdp shard_grad_op` (the Trainer's words)" : `--fsdp: two strategies, ${fsdp} and ${m}`);
    else fsdp = m;
  }
  if (!fsdp && offload && !autoWrap) throw new RangeError('`--fsdp offload` can\'t work on its own. It needs to be added to `--fsdp full_shard` or `--fsdp shard_grad_op`. For example, `--fsdp "full_shard offload"` (the Trainer\'s words)');
  // accelerate's FullyShardedDataParallelPlugin default when no strategy word is given
  return { fsdp: fsdp ?? "FULL_SHARD", offload, autoWrap };
}

/**
 * Parses the Trainer's `--deepspeed`, `--fsdp` and `--fsdp_config` flags (other flags are left to the caller).
 * `--fsdp` takes space-separated lower-case words (full_shard, shard_grad_op, no_shard, hybrid_shard, offload, auto_wrap),
 * as {@link fsdpWords}. The `--fsdp_config` object is read as the Trainer reads it ({@link readHfFsdpConfig}: `fsdp_`
 * prefixes dropped, string booleans, unknown keys ignored); it decides the auto-wrap policy: min_num_params → by size,
 * transformer_layer_cls_to_wrap → by layer.
 *
 * @param argv the arguments, e.g. ["--fsdp", "full_shard auto_wrap", "--fsdp_config", "fsdp.json"]
 * @param readFsdpConfig returns the parsed JSON of the `--fsdp_config` path (default: none given → error if the flag is used)
 * @returns {@link HfShardingArgs}
 * @throws RangeError `--fsdp: unknown option "zero3" (one of full_shard, …)`;
 *   `--deepspeed and --fsdp exclude each other`; the errors of {@link readHfFsdpConfig}
 * @example parseHfTrainerArgs(["--fsdp", "full_shard auto_wrap"]).fsdp // "FULL_SHARD"
 * @see transformers TrainingArguments docs (fsdp, fsdp_config, deepspeed) and training_args.py `_process_fsdp_args` at 00349ae
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
  const words = fsdpText !== null ? fsdpWords(fsdpText) : null;
  let wrap: WrapPolicy = words?.autoWrap ? "layer" : "root";
  let fsdpConfig: HfFsdpConfig | null = null;
  if (fsdpConfigPath) {
    if (!words) throw new RangeError("--fsdp_config without --fsdp");
    if (!readFsdpConfig) throw new RangeError(`--fsdp_config ${fsdpConfigPath}: no reader for the file`);
    fsdpConfig = readHfFsdpConfig(readFsdpConfig(fsdpConfigPath));
    if (fsdpConfig.minNumParams > 0 && words.autoWrap) wrap = { minNumParams: fsdpConfig.minNumParams };
  }
  return { deepspeed, fsdp: words?.fsdp ?? null, fsdpOffload: words?.offload ?? false, wrap, fsdpConfigPath, fsdpConfig };
}
