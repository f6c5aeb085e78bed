/**
 * The estimate CLI's configuration-file flags: `--deepspeed FILE`, `--fsdp
 * WORDS|FILE`, `--fsdp-config FILE` and `--megatron-args FILE`. Each file is
 * read as its framework reads it (lib/zero, lib/plan); this module only reads
 * the files and applies what they decide to the estimate's setup. Paths are
 * quoted as the user typed them.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import type { TrainingSetup } from "./estimateMemory.js";
import { shardingForEstimate } from "../zero/shardingForEstimate.js";
import { readAccelerateConfig } from "../zero/readAccelerateConfig.js";
import { readMegatronLaunch, type MegatronLaunch } from "../plan/readMegatronLaunch.js";

/** An error the CLI prints as it is (exit status 2). */
export class ConfigFileError extends Error {}

/**
 * The text of a file named by a flag, or an error quoting the path as typed.
 * @param flag e.g. "--deepspeed"
 * @param path as typed
 * @returns the file's text
 * @throws ConfigFileError `--deepspeed "./ds.json": no such file`
 * @example readFlagFile("--deepspeed", "lib/zero/configs/ds_zero2_no_offload.json").startsWith("{") // true
 * @see Node.js fs.readFileSync
 */
export function readFlagFile(flag: string, path: string): string {
  if (!existsSync(path)) throw new ConfigFileError(`${flag} ${JSON.stringify(path)}: no such file`);
  if (!statSync(path).isFile()) throw new ConfigFileError(`${flag} ${JSON.stringify(path)} is a folder; give a file`);
  return readFileSync(path, "utf8");
}

/** Whether an `--fsdp` value names a file rather than strategy words. */
const looksLikePath = (v: string) => /[/\\]|\.(ya?ml|json)$/i.test(v.trim()) || existsSync(v);

/** The flags the user gave (undefined: not given). */
type Values = Record<string, string | boolean | undefined>;

/**
 * Applies a Megatron-LM launch to the setup: the model, the layout (t, p,
 * sequence parallel, GPUs), the micro-batch and the micro-batches per step, the
 * sequence (divided by the context-parallel size), precision, distributed
 * optimizer (ZeRO-1), recomputation, attention and the interleaved schedule.
 * A flag that sets the same thing is an error naming both.
 * @param values the CLI flags
 * @param text the launch script
 * @returns the run and the setup fields it decides
 * @throws ConfigFileError `--tp and --megatron-args both set it; give one`; the reader's errors, prefixed by the path
 * @example megatronSetup({ "megatron-args": "run.sh" }, text).setup.tensorParallel // 2
 * @see lib/plan/readMegatronLaunch.ts
 */
export function megatronSetup(values: Values, text: string): { run: MegatronLaunch; setup: Partial<TrainingSetup> } {
  const path = values["megatron-args"] as string;
  for (const f of ["model", "params", "tp", "pp", "sp", "micro-batch", "micro-batches", "seq", "precision", "zero", "recompute", "attention", "schedule", "virtual-stages"]) {
    if (values[f] !== undefined) throw new ConfigFileError(`--${f} and --megatron-args both set it; give one`);
  }
  let run: MegatronLaunch;
  try { run = readMegatronLaunch(text, { worldSize: values.gpus !== undefined ? Number(values.gpus) : undefined }); } catch (e) { throw new ConfigFileError(`--megatron-args ${JSON.stringify(path)}: ${(e as Error).message}`); }
  const world = run.worldSize ?? run.tensorParallel * run.pipelineParallel * run.contextParallel;
  const m = run.globalBatch !== null && run.dataParallel !== null ? run.globalBatch / (run.microBatch * run.dataParallel) : undefined;
  return {
    run,
    setup: {
      arch: run.arch, numGpus: world / run.contextParallel, tensorParallel: run.tensorParallel, pipelineParallel: run.pipelineParallel, sequenceParallel: run.sequenceParallel,
      microBatch: run.microBatch, ...(m !== undefined && run.pipelineParallel > 1 ? { microBatches: m } : {}), seqLen: run.seqLen / run.contextParallel,
      precision: run.precision, zeroStage: run.zeroStage, loss: "megatron" as const, recompute: run.recompute, attention: run.attention,
      ...(run.virtualStages > 1 ? { pipelineSchedule: "interleaved" as const, virtualStages: run.virtualStages } : {}),
    },
  };
}

/**
 * Applies `--deepspeed`, `--fsdp` (words or an accelerate config file) and
 * `--fsdp-config` to the setup: the stage, precision, offload, micro-batch,
 * recomputation and GPU count they decide ({@link shardingForEstimate}).
 * @param values the CLI flags
 * @param setup the setup built from the flags (changed in place)
 * @returns notes to print
 * @throws ConfigFileError naming the flag and the path as typed, e.g. `--fsdp "my_fsdp.yaml": no such file`
 * @example applyShardingFiles({ fsdp: "full_shard" }, setup) // ["--fsdp: FULL_SHARD → ZeRO stage 3"]
 * @see lib/zero/shardingForEstimate.ts
 */
export function applyShardingFiles(values: Values, setup: TrainingSetup): string[] {
  const ds = values.deepspeed as string | undefined, fsdp = values.fsdp as string | undefined, fsdpConfigPath = values["fsdp-config"] as string | undefined;
  if (ds === undefined && fsdp === undefined && fsdpConfigPath === undefined) return [];
  if (fsdpConfigPath !== undefined && fsdp === undefined) throw new ConfigFileError('--fsdp-config needs --fsdp with the Trainer\'s words, e.g. --fsdp "full_shard auto_wrap" (as the Trainer\'s --fsdp_config needs --fsdp)');
  const source = ds !== undefined ? `--deepspeed ${JSON.stringify(ds)}` : fsdpConfigPath !== undefined ? `--fsdp-config ${JSON.stringify(fsdpConfigPath)}` : `--fsdp ${JSON.stringify(fsdp)}`;
  for (const f of ["zero", "offload"]) if (values[f] !== undefined) throw new ConfigFileError(`--${f} and ${ds !== undefined ? "--deepspeed" : "--fsdp"} both set it; give one`);
  const t = setup.tensorParallel ?? 1, p = setup.pipelineParallel ?? 1;
  const flags = {
    dataParallel: setup.numGpus / (t * p), microBatch: values["micro-batch"] !== undefined ? setup.microBatch : undefined,
    precision: values.precision !== undefined ? setup.precision : undefined, recomputeGiven: values.recompute !== undefined, gpusGiven: values.gpus !== undefined,
    hiddenSize: setup.arch?.hiddenSize, defaults: { microBatch: 1, precision: "bf16" as const },
  };
  try {
    let o;
    if (ds !== undefined) o = shardingForEstimate({ ...flags, deepspeed: readFlagFile("--deepspeed", ds) });
    else if (fsdpConfigPath !== undefined) {
      const text = readFlagFile("--fsdp-config", fsdpConfigPath);
      let json: unknown;
      try { json = JSON.parse(text); } catch (e) { throw new ConfigFileError(`${source}: not valid JSON (the Trainer reads it with json.load): ${(e as Error).message}`); }
      o = shardingForEstimate({ ...flags, fsdp, fsdpConfig: json });
    } else if (looksLikePath(fsdp!)) {
      const a = readAccelerateConfig(readFlagFile("--fsdp", fsdp!), fsdp!);
      if (a.numProcesses !== null && values.gpus === undefined) flags.dataParallel = a.numProcesses / (t * p);
      o = shardingForEstimate({ ...flags, accelerate: a });
    } else o = shardingForEstimate({ ...flags, fsdp });
    Object.assign(setup, { zeroStage: o.zeroStage, precision: o.precision, offload: o.offload, ...(o.microBatch ? { microBatch: o.microBatch } : {}), ...(o.recompute ? { recompute: o.recompute } : {}), ...(o.numGpus ? { numGpus: o.numGpus } : {}), ...(o.ampDesign && values["amp-design"] === undefined ? { ampDesign: o.ampDesign } : {}) });
    return o.notes;
  } catch (e) {
    if (e instanceof ConfigFileError) throw e;
    const msg = (e as Error).message;
    throw new ConfigFileError(msg.startsWith(fsdp ?? "\0") ? `--fsdp ${msg}` : `${source}: ${msg}`);
  }
}
