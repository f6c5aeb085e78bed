import { existsSync, readFileSync, statSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { normalizeArgv } from "../normalizeArgv.js";
import { basename } from "node:path";
import { didYouMean } from "../suggest.js";
import { parseModelConfig, type ModelArch } from "./parseModelConfig.js";
import { estimateMemory, CONVENTION, type TrainingSetup } from "./estimateMemory.js";
import { fitsInMemory } from "./estimateMemory.js";
import type { AmpDesign, Offload, OptimizerName, Precision, ZeroStage } from "./modelStateBytes.js";
import type { Attention } from "./peakMemory.js";
import type { Recompute } from "./activationBytes.js";
import type { PipelineSchedule } from "./firstStageActivationBytes.js";
import { isPresetName, PRESET_NAMES } from "./presets.js";
import { loadPresetText } from "./loadPresetText.js";
import { formatGiB } from "./units.js";
import { applyShardingFiles, ConfigFileError, megatronSetup, readFlagFile } from "./cliConfigFiles.js";
import { contextWarning } from "./contextWarning.js";
import { parameterCount } from "./parameterCount.js";

/**
 * What {@link main} returns instead of printing: exit status and the two streams.
 * @see the sources of {@link HELP}: Node.js `util.parseArgs` docs (the option syntax); {@link estimateMemory} for what each option changes
 */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The `--help` text: every option with its default.
 * @example HELP.startsWith("Estimate GPU memory per device") // true
 * @see Node.js `util.parseArgs` docs (the option syntax); {@link estimateMemory} for what each option changes
 */
export const HELP = `Estimate GPU memory per device for training a transformer.

Usage: npm run estimate -- --model <preset|path/to/config.json> [options]
       npm run estimate -- --params <N> [options]        (model states only)
       npm run estimate -- --megatron-args <script|command line in a file> [options]

  --model M          preset (${PRESET_NAMES.join(", ")}) or a config.json path
  --params N         parameter count (integer, e.g. 13015864320 or 7.5e9); overrides the config's count
  --gpus N           all GPUs, = data × tensor × pipeline parallel    (default --tp × --pp)
  --zero S           ZeRO stage 0, 1, 2 or 3                           (default 0)
  --offload O        none | optimizer | optimizer+params (stage 3)      (default none)
  --precision P      fp32 | fp16 | bf16 (fp16/bf16: mixed, fp32 master) (default bf16)
  --optimizer O      adamw | sgd-momentum | sgd                         (default adamw)
  --micro-batch B    sequences per GPU per micro-batch                  (default 1)
  --seq S            tokens per sequence                                (default 2048)
  --recompute R      none | selective | full                            (default none)
  --tp T             tensor-parallel size (Megatron-LM's rule: divides the
                       heads and FFN; KV heads a multiple or divisor of T)  (default 1)
  --pp P             pipeline-parallel size, divides the layers         (default 1)
  --sp               Megatron sequence parallelism (with --tp > 1)      (default off)
  --micro-batches M  micro-batches per step (gradient accumulation): the first
                       pipeline stage's activations in flight              (default: --pp)
  --schedule S       1f1b | gpipe | interleaved (pipeline schedule)     (default 1f1b)
  --virtual-stages V model chunks per stage, with --schedule interleaved (default 2)
  --attention A      eager | flash (FlashAttention: no a·s² scores)     (default eager)
  --amp-design D     deepspeed | torch                                  (default deepspeed)
                       deepspeed: DeepSpeed/Megatron/apex O2, 16-bit weights and gradients,
                         fp32 master inside the optimizer (2 + 2 + 12 bytes with Adam); the design
                         ZeRO partitions, hence the default (every --zero stage is defined on it)
                       torch: PyTorch AMP (torch.autocast, e.g. the HF Trainer's --fp16 without
                         DeepSpeed): fp32 weights and .grad, Adam 8 (4 + 4 + 8), DDP's bucket copy
                         of the gradients, 16-bit weight casts in forward; --zero 0 only
  --bucket-view      DDP gradient_as_bucket_view=True (no bucket copy; torch design)
  --deepspeed FILE   a DeepSpeed config, read as DeepSpeed reads it: its stage, precision, offload and
                       micro-batch ("auto" filled from --gpus, --micro-batch, --precision as the HF Trainer
                       does). No fp16/bf16 block means fp32, as in DeepSpeed; --precision bf16 given
                       models the Trainer's --bf16, which adds the block
  --fsdp S|FILE      the Trainer's --fsdp words ("full_shard auto_wrap offload") or a strategy name
                       (FULL_SHARD | SHARD_GRAD_OP | NO_SHARD); or an accelerate config file (YAML/JSON,
                       distributed_type FSDP, DEEPSPEED or MULTI_GPU)
  --fsdp-config FILE the Trainer's --fsdp_config JSON (with --fsdp words)
  --megatron-args F  a Megatron-LM launch (script or command line): model, layout, batch, precision,
                       distributed optimizer (ZeRO-1), recomputation; instead of --model and those flags
                       (--gpus replaces its torchrun world size)
  --gpu-mem G        GiB per GPU: also say whether the PEAK fits          (default: not judged)
  --json             print {params, perGpu: {…, total}, peak: {lines, total}, …} in bytes
  --verbose          also print the convention (what is and is not counted)
  --help             this text

Exit status: 0 on success, 2 on bad input (the message names the field).
`;

class UsageError extends Error {}

/** Largest value each count flag accepts: far beyond any real run, small enough that byte counts stay exact integers. */
const MAX: Record<string, number> = { "gpu-mem": 2 ** 20, params: 1e15, gpus: 2 ** 20, "micro-batch": 2 ** 16, seq: 2 ** 24, tp: 2 ** 12, pp: 2 ** 12 };
MAX["micro-batches"] = 2 ** 20;
MAX["virtual-stages"] = 2 ** 10;

function count(flag: string, v: string | undefined, fallback: number, min: number): number {
  if (v === undefined) return fallback;
  const n = /^\d+(\.\d+)?(e\d+)?$/i.test(v.trim()) ? Number(v) : NaN;
  const max = MAX[flag] ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`--${flag} must be an integer from ${min} to ${max.toLocaleString("en-US")}, got ${JSON.stringify(v)}`);
  return n;
}

/** A memory size in GiB, decimals allowed (usable memory is rarely a whole number of GiB), above 0. */
function gibibytes(flag: string, v: string): number {
  const n = /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : NaN;
  const max = MAX[flag] ?? Number.MAX_SAFE_INTEGER;
  if (!(n > 0) || n > max) throw new UsageError(`--${flag} must be a number of GiB above 0 and at most ${max.toLocaleString("en-US")}, got ${JSON.stringify(v)}`);
  return n;
}

function choice<T extends string>(flag: string, v: string | undefined, allowed: readonly T[], fallback: T): T {
  if (v === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`--${flag} must be one of ${allowed.join(", ")}, got ${JSON.stringify(v)}`);
  return v as T;
}

function loadArch(model: string): ModelArch {
  let text: string;
  if (isPresetName(model)) text = loadPresetText(model);
  else if (existsSync(model)) {
    if (!statSync(model).isFile()) throw new UsageError(`--model ${JSON.stringify(model)} is a folder; give a preset or the path of a config.json file`);
    text = readFileSync(model, "utf8");
  }
  else throw new UsageError(`--model ${JSON.stringify(model)} is neither a preset (${PRESET_NAMES.join(", ")}) nor an existing file${didYouMean(model, PRESET_NAMES)}`);
  try {
    return parseModelConfig(text);
  } catch (e) {
    throw new UsageError(`--model ${model}: ${(e as Error).message.replace(/^config\.json\b/, basename(model))}`);
  }
}

function table(label: string, setup: TrainingSetup, r: ReturnType<typeof estimateMemory>, gpuGiB: number | undefined, verbose: boolean): string {
  const rows: [string, number][] = [
    ["parameters", r.perGpu.parameters], ["gradients", r.perGpu.gradients], ["optimizerStates", r.perGpu.optimizerStates],
    ...(r.perGpu.gradientBuckets > 0 ? [["gradientBuckets", r.perGpu.gradientBuckets] as [string, number]] : []),
    ["activations", r.perGpu.activations], ["steady total", r.perGpu.total],
  ];
  const phase = { always: "always", output: "at the output", layer: "one layer" } as const;
  const t = setup.tensorParallel ?? 1;
  const p = setup.pipelineParallel ?? 1;
  const lines = [
    label,
    `Setup: ${setup.numGpus} GPU${setup.numGpus === 1 ? "" : "s"} (data ${r.dataParallel} × tensor ${t} × pipeline ${p}), ZeRO-${setup.zeroStage}` +
      `${setup.offload && setup.offload !== "none" ? ` + offload ${setup.offload}` : ""}, ${setup.precision}, ${setup.optimizer}, ` +
      `micro-batch ${setup.microBatch}${p > 1 || setup.microBatches !== undefined ? ` × ${setup.microBatches ?? p} micro-batches (${setup.pipelineSchedule ?? "1f1b"}${setup.pipelineSchedule === "interleaved" ? `, v = ${setup.virtualStages ?? 2}` : ""})` : ""}, seq ${setup.seqLen}, recompute ${setup.recompute ?? "none"}${setup.sequenceParallel ? ", sequence parallel" : ""}, ` +
      `${setup.attention ?? "eager"} attention, amp design ${setup.ampDesign ?? "deepspeed"}`,
    "",
    `${"component".padEnd(18)}${"GiB per GPU".padStart(12)}`,
    ...rows.map(([k, v]) => `${k.padEnd(18)}${formatGiB(v).padStart(12)}`),
  ];
  if (r.cpuBytesPerGpu > 0) lines.push(`${"(CPU, offloaded)".padEnd(18)}${formatGiB(r.cpuBytesPerGpu).padStart(12)}`);
  lines.push("", "Transient, on top of the steady state (the output and one-layer phases do not overlap; the larger counts):");
  const phaseSum = (ph: string) => r.peak.lines.filter((l) => l.phase === ph).reduce((acc, l) => acc + l.bytes, 0);
  const dropped = phaseSum("output") > phaseSum("layer") ? "layer" : "output"; // the phase that is not added (ties: the output's)
  for (const l of r.peak.lines) {
    const counted = l.phase !== dropped;
    lines.push(`${counted ? "+" : " "} ${l.name.padEnd(20)}${formatGiB(l.bytes).padStart(8)}  (${phase[l.phase as keyof typeof phase]}${counted ? "" : "; not added: the other phase is larger"}) ${l.what}`, `${"".padEnd(32)}source: ${l.source}`);
  }
  if (r.peak.lines.length === 0) lines.push("  (none known)");
  lines.push(`${"peak total".padEnd(18)}${formatGiB(r.peak.total).padStart(12)}`);
  if (gpuGiB !== undefined) {
    const fits = fitsInMemory(r, gpuGiB * 2 ** 30);
    lines.push(`Fits in ${gpuGiB} GiB per GPU: ${fits ? "yes" : "NO"} (peak ${formatGiB(r.peak.total)} GiB; steady state ${formatGiB(r.perGpu.total)} GiB)`);
  }
  lines.push("", ...r.notes.map((n) => `Note: ${n}`));
  lines.push(verbose ? `Convention: ${CONVENTION}` : "Not counted: CUDA context, other buffers, fragmentation (--verbose for the convention).");
  return lines.join("\n") + "\n";
}

/**
 * The `npm run estimate` command, as a function: parses `argv` (without node
 * and the script), estimates, and returns the exit status and output.
 *
 * @param argv e.g. ["--model", "llama-2-13b", "--gpus", "8", "--zero", "2", "--json"]
 * @returns `{code: 0, stdout}` on success, `{code: 2, stderr}` naming the bad field on bad input
 * @example main(["--params", "7.5e9", "--gpus", "64", "--zero", "3", "--precision", "fp16", "--json"]).stdout
 *   // {"params":7500000000,"perGpu":{"parameters":234375000,…,"total":1875000000},…}
 * @see lib/memory/estimateMemory.ts
 * @throws nothing: every error, including the library's RangeErrors (renamed to the CLI's flags, e.g.
 *   `--gpus must be an integer >= 1, got 0`) and unknown options, is caught and returned as `{code: 2, stderr}`
 */
export function main(argv: readonly string[]): CliResult {
  try {
    const { values } = parseArgs({ args: normalizeArgv(argv), strict: true, allowPositionals: false, options: OPTIONS });
    if (values.help) return { code: 0, stdout: HELP, stderr: "" };
    if (values.model === undefined && values.params === undefined && values["megatron-args"] === undefined) throw new UsageError("give --model <preset|config.json>, --params <N> or --megatron-args <script> (see --help)");
    const megatron = values["megatron-args"] !== undefined ? megatronSetup(values, readFlagFile("--megatron-args", values["megatron-args"])) : undefined;
    const arch = megatron ? megatron.run.arch : values.model !== undefined ? loadArch(values.model) : undefined;
    const setup: TrainingSetup = {
      arch,
      params: values.params !== undefined ? count("params", values.params, 0, 1) : undefined,
      // Without --gpus, one tensor × pipeline group (no data parallelism): 1 unless --tp/--pp are given.
      numGpus: count("gpus", values.gpus, count("tp", values.tp, 1, 1) * count("pp", values.pp, 1, 1), 1),
      zeroStage: count("zero", values.zero, 0, 0) as ZeroStage,
      offload: choice<Offload>("offload", values.offload, ["none", "optimizer", "optimizer+params"], "none"),
      precision: choice<Precision>("precision", values.precision, ["fp32", "fp16", "bf16"], "bf16"),
      optimizer: choice<OptimizerName>("optimizer", values.optimizer, ["adamw", "sgd-momentum", "sgd"], "adamw"),
      microBatch: count("micro-batch", values["micro-batch"], 1, 1),
      // A model with a learned position table (GPT-2) cannot see more tokens than its rows: default to that length.
      seqLen: count("seq", values.seq, arch && arch.learnedPositions > 0 ? Math.min(2048, arch.learnedPositions) : 2048, 1),
      recompute: choice<Recompute>("recompute", values.recompute, ["none", "selective", "full"], "none"),
      tensorParallel: count("tp", values.tp, 1, 1),
      pipelineParallel: count("pp", values.pp, 1, 1),
      sequenceParallel: values.sp ?? false,
      microBatches: values["micro-batches"] !== undefined ? count("micro-batches", values["micro-batches"], 1, 1) : undefined,
      pipelineSchedule: choice<PipelineSchedule>("schedule", values.schedule, ["1f1b", "gpipe", "interleaved"], "1f1b"),
      virtualStages: values["virtual-stages"] !== undefined ? count("virtual-stages", values["virtual-stages"], 1, 1) : undefined,
      attention: choice<Attention>("attention", values.attention, ["eager", "flash"], "eager"),
      ampDesign: choice<AmpDesign>("amp-design", values["amp-design"], ["deepspeed", "torch"], "deepspeed"),
      gradientAsBucketView: values["bucket-view"] ?? false,
      ...megatron?.setup,
    };
    // chapter 8: a DeepSpeed config, FSDP words, an FSDP config or an accelerate config decide the stage (and precision, offload, micro-batch)
    const configNotes = [...(megatron?.run.notes ?? []), ...applyShardingFiles(values, setup)];
    const gpuGiB = values["gpu-mem"] !== undefined ? gibibytes("gpu-mem", values["gpu-mem"]) : undefined;
    if (setup.zeroStage > 3) throw new UsageError(`--zero must be 0, 1, 2 or 3, got ${JSON.stringify(values.zero)}`);
    const context = arch ? contextWarning(arch, setup.seqLen) : null;
    if (context?.hard) throw new UsageError(`--seq (${setup.seqLen}) exceeds the model's n_positions (${arch!.learnedPositions}): its learned position table has no rows beyond that`);
    const warnings = context ? [`--seq ${context.message}`] : [];
    let r: ReturnType<typeof estimateMemory>;
    try {
      r = estimateMemory(setup);
    } catch (e) {
      throw new UsageError(cliNames((e as Error).message));
    }
    if (!Object.values(r.perGpu).every(Number.isSafeInteger)) {
      throw new UsageError(`the estimate exceeds 2^53 bytes (8 PiB) per GPU, beyond exact integers: reduce --seq or --micro-batch`);
    }
    if (values.json) {
      const out = {
        params: r.params, perGpu: r.perGpu, peak: r.peak, dataParallel: r.dataParallel, cpuBytesPerGpu: r.cpuBytesPerGpu,
        ...(gpuGiB !== undefined ? { gpuBytes: gpuGiB * 2 ** 30, fits: fitsInMemory(r, gpuGiB * 2 ** 30) } : {}),
        ampDesign: setup.ampDesign, precision: setup.precision, zeroStage: setup.zeroStage, ...(arch?.moe ? { activeParams: parameterCount(arch).activeParameters } : {}),
        warnings, notes: [...configNotes, ...r.notes], convention: CONVENTION,
      };
      return { code: 0, stdout: JSON.stringify(out, null, 2) + "\n", stderr: "" };
    }
    const active = arch?.moe && values.params === undefined ? `, ${parameterCount(arch).activeParameters.toLocaleString("en-US")} active per token` : "";
    const label = arch !== undefined
      ? `Model: ${values.model ?? `${values["megatron-args"]} (Megatron-LM arguments)`} (${r.params.toLocaleString("en-US")} parameters${active}${values.params !== undefined ? ", from --params" : ""})`
      : `Model: ${values.params} parameters (${r.params.toLocaleString("en-US")}; no config.json, so no activations)`;
    const out = table(label, setup, { ...r, notes: [...configNotes, ...r.notes] }, gpuGiB, values.verbose ?? false);
    return { code: 0, stdout: warnings.map((w) => `Warning: ${w}\n`).join("") + out, stderr: "" };
  } catch (e) {
    let msg = (e as Error).message;
    if (e instanceof ConfigFileError) msg = msg.replace(/\bnumGpus\b/g, "--gpus");
    const unknown = /Unknown option '--([^']+)'/.exec(msg);
    if (unknown) msg += didYouMean(unknown[1], OPTION_NAMES, "--");
    return { code: 2, stdout: "", stderr: `estimate: ${msg}\nRun with --help for the options.\n` };
  }
}

/** The CLI's options, as `util.parseArgs` takes them. */
const OPTIONS = {
  model: { type: "string" }, params: { type: "string" }, gpus: { type: "string" }, zero: { type: "string" },
  offload: { type: "string" }, precision: { type: "string" }, optimizer: { type: "string" },
  "micro-batch": { type: "string" }, seq: { type: "string" }, recompute: { type: "string" },
  tp: { type: "string" }, pp: { type: "string" }, sp: { type: "boolean" }, json: { type: "boolean" }, help: { type: "boolean" },
  "micro-batches": { type: "string" }, schedule: { type: "string" }, "virtual-stages": { type: "string" },
  attention: { type: "string" }, "amp-design": { type: "string" }, "bucket-view": { type: "boolean" }, "gpu-mem": { type: "string" },
  verbose: { type: "boolean" }, deepspeed: { type: "string" }, fsdp: { type: "string" }, "fsdp-config": { type: "string" }, "megatron-args": { type: "string" },
} as const;
const OPTION_NAMES = Object.keys(OPTIONS);

/** Renames library fields to the CLI's flags in an error message. */
function cliNames(message: string): string {
  return message
    .replace(/\bnumGpus\b/g, "--gpus").replace(/\btensorParallel\b/g, "--tp").replace(/\bpipelineParallel\b/g, "--pp")
    .replace(/\bmicroBatches\b/g, "--micro-batches").replace(/\bvirtualStages\b/g, "--virtual-stages").replace(/\bnumLayers\b/g, "num_hidden_layers")
    .replace(/\bzeroStage\b/g, "--zero").replace(/\boffload "/g, '--offload "').replace(/\bampDesign\b/g, "--amp-design");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = main(process.argv.slice(2));
  if (r.stdout) process.stdout.write(r.stdout);
  if (r.stderr) process.stderr.write(r.stderr);
  process.exitCode = r.code;
}
