import { existsSync, readFileSync, statSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { didYouMean } from "../suggest.js";
import { normalizeArgv } from "../normalizeArgv.js";
import { contextWarning, formatGiB, isPresetName, parseModelConfig, PRESET_NAMES, type ModelArch, type OptimizerName, type Precision } from "../memory/index.js";
import { loadPresetText } from "../memory/loadPresetText.js";
import { LINK_PRESETS } from "../collectives/index.js";
import { CLUSTER_PRESETS, clusterOf, clusterPreset, type Cluster } from "./clusterPresets.js";
import { DEFAULT_MEMORY_HEADROOM } from "./memoryHeadroom.js";
import { GPU_PRESETS } from "../perf/gpuPresets.js";
import { exportPlan, runNote, type ExportFormat } from "./exportPlan.js";
import { searchPlans, singleChanges } from "./searchPlans.js";
import { MIN_CP_CHUNK } from "./enumeratePlans.js";
import { nearestGlobalBatches } from "./nearestGlobalBatches.js";
import { reasonKind } from "./rejectionReason.js";
import { evaluatePlan, type PlanResult } from "./evaluatePlan.js";
import { readMegatronLaunch, type MegatronLaunch } from "./readMegatronLaunch.js";
import { megatronPlan, rankAmong } from "./megatronPlan.js";
import { planRuntime } from "./planRuntime.js";
import type { Workload } from "./planLabel.js";
import { bestByDimension } from "./bestByDimension.js";
import { parameterCount } from "../memory/index.js";

/**
 * The `--help` text of `npm run plan`.
 * @example HELP.startsWith("Plan a training run") // true
 * @see {@link main}
 */
export const HELP = `Plan a training run: every layout of the GPUs, judged for memory and speed.

Usage: npm run plan -- --model <preset|config.json> --global-batch B [cluster] [options]
       (a mixture of experts, e.g. --model mixtral-8x7b, is searched with expert parallelism;
        a long sequence, e.g. --seq 131072, with context parallelism)
       npm run plan -- --megatron-args <script> [cluster] [options]   (rank that Megatron-LM layout)

Model and workload
  --model M            preset (${PRESET_NAMES.join(", ")}) or a config.json path
  --global-batch B     sequences per optimizer step, all GPUs (required)
  --seq S              tokens per sequence                                  (default 2048)
  --precision P        fp32 | fp16 | bf16                                   (default bf16)
  --optimizer O        adamw | sgd-momentum | sgd                           (default adamw)
  --megatron-args F    a Megatron-LM launch (script or command line): its model, batch, sequence,
                         precision and layout; the planner judges that layout and ranks it
                         (--gpus or --cluster replaces its torchrun world size)
Cluster: a preset, or a GPU type and counts
  --cluster C          ${CLUSTER_PRESETS.map((c) => c.id).join(" | ")}
  --gpu G              ${GPU_PRESETS.map((g) => g.id).join(" | ")}
                       (default a100-80gb)
  --gpus N             all GPUs                                             (default 8)
  --gpus-per-node G    GPUs in one node                                     (default 8)
  --inter-node L       link between nodes: ${LINK_PRESETS.filter((l) => l.id.startsWith("net")).map((l) => l.id).join(" | ")}   (default net-200g)
Search and assumptions
  --no-offload         leave offload out of the search
  --cp SIZES           context-parallel sizes to search, e.g. 1,2,4 or 16   (default: powers of two
                       whose chunks hold at least ${MIN_CP_CHUNK} tokens)
  --ep SIZES           expert-parallel sizes to search, e.g. 8 or 1,8,64 (a mixture of experts only;
                       default: every divisor of the experts read from the config)
  --fp8 F              search | on | off: FP8 GEMMs searched, forced or left out   (default search,
                       on GPUs with FP8 tensor cores)
  --cp-comm-type T     p2p (ring attention, Megatron's default) | allgather (Llama 3's)   (default p2p)
  --headroom H         fraction of each GPU's memory kept free for the CUDA context,
                       NCCL buffers and fragmentation, in [0, 1)            (default ${DEFAULT_MEMORY_HEADROOM})
  --price P            price of one GPU-hour: adds the cost of a million tokens
  --top K              plans to print                                       (default 10)
  --json               print {ranked, rejected (first 20), searched} as JSON
  --export F           print the best plan as deepspeed | fsdp | megatron | torchrun
  --help               this text

Reading the table: a plan is dp×tp×pp (data-, tensor-, pipeline-parallel sizes), cp and ep when
above 1 (context- and expert-parallel sizes), the ZeRO stage, b<micro-batch>×<accumulation steps>
(b2×16: 2 sequences per GPU per micro-batch, 16 micro-batches per optimizer step), recomputation,
attention, and fp8 for FP8 GEMMs. "exposed comm s" is the communication nothing hides (tensor-,
data-, context- and expert-parallel, pipeline sends, offload transfers) and the compute slowed by
the SMs that hidden collectives hold;
"bubble" is the pipeline's idle time. Both are seconds per optimizer step, inside "step s".

Exit status: 0 on success (also when nothing fits: the answer says why), 2 on bad input (the message names the flag).
`;

class UsageError extends Error {}

const OPTIONS = {
  model: { type: "string" }, "global-batch": { type: "string" }, seq: { type: "string" }, precision: { type: "string" }, optimizer: { type: "string" },
  cluster: { type: "string" }, gpu: { type: "string" }, gpus: { type: "string" }, "gpus-per-node": { type: "string" }, "inter-node": { type: "string" },
  "no-offload": { type: "boolean" }, cp: { type: "string" }, ep: { type: "string" }, fp8: { type: "string" }, "cp-comm-type": { type: "string" }, headroom: { type: "string" }, price: { type: "string" }, top: { type: "string" },
  json: { type: "boolean" }, export: { type: "string" }, help: { type: "boolean" }, "megatron-args": { type: "string" },
} as const;
const OPTION_NAMES = Object.keys(OPTIONS);

function int(flag: string, v: string | undefined, fallback: number | undefined, min: number, max: number): number {
  if (v === undefined) {
    if (fallback === undefined) throw new UsageError(`--${flag} is required`);
    return fallback;
  }
  const n = /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`--${flag} must be an integer from ${min} to ${max.toLocaleString("en-US")}, got ${JSON.stringify(v)}`);
  return n;
}

function num(flag: string, v: string, lo: number, hi: number, loOpen: boolean): number {
  const n = /^\d+(\.\d+)?(e-?\d+)?$/i.test(v.trim()) ? Number(v) : NaN;
  if (!(loOpen ? n > lo : n >= lo) || !(n <= hi)) throw new UsageError(`--${flag} must be a number in ${loOpen ? "(" : "["}${lo}, ${hi}], got ${JSON.stringify(v)}`);
  return n;
}

/** A comma-separated list of sizes, each an integer from 1 to 2^20 (`--cp 1,2,4`). */
function sizes(flag: string, v: string | undefined): number[] | undefined {
  if (v === undefined) return undefined;
  const xs = v.split(",").map((x) => (/^\d+$/.test(x.trim()) ? Number(x) : NaN));
  if (!xs.length || xs.some((n) => !Number.isSafeInteger(n) || n < 1 || n > 2 ** 20)) throw new UsageError(`--${flag} must be integers from 1 to 1,048,576 separated by commas, got ${JSON.stringify(v)}`);
  return xs;
}

function choice<T extends string>(flag: string, v: string | undefined, allowed: readonly T[], fallback: T): T {
  if (v === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`--${flag} must be one of ${allowed.join(", ")}, got ${JSON.stringify(v)}${didYouMean(v, allowed)}`);
  return v as T;
}

function loadArch(model: string): ModelArch {
  let text: string;
  if (isPresetName(model)) text = loadPresetText(model);
  else if (existsSync(model) && statSync(model).isFile()) text = readFileSync(model, "utf8");
  else throw new UsageError(`--model ${JSON.stringify(model)} is neither a preset (${PRESET_NAMES.join(", ")}) nor a config.json file${didYouMean(model, PRESET_NAMES)}`);
  try {
    return parseModelConfig(text);
  } catch (e) {
    throw new UsageError(`--model ${model}: ${(e as Error).message}`);
  }
}

/** A launch note as the planner sizes the plan: Megatron's fp32 gradient bytes are counted when the planner runs the plan on Megatron (lib/plan planRuntime). */
function countedNote(note: string, plan: PlanResult["plan"]): string {
  return planRuntime(plan, { framework: "megatron" }) === "megatron" ? note.replace(/, not counted$/, ", counted (the planner sizes a Megatron plan with Megatron's own bytes per parameter)") : note;
}

/** Reads --megatron-args: the run, and the cluster flags with its world size (its flags that also name the batch, sequence or precision are refused). */
function loadMegatron(values: Record<string, string | boolean | undefined>): { run: MegatronLaunch; clusterValues: Record<string, string | boolean | undefined> } {
  const path = values["megatron-args"] as string;
  for (const f of ["model", "global-batch", "seq", "precision"]) if (values[f] !== undefined) throw new UsageError(`--${f} and --megatron-args both set it; give one`);
  if (!existsSync(path) || !statSync(path).isFile()) throw new UsageError(`--megatron-args ${JSON.stringify(path)}: no such file`);
  let run: MegatronLaunch;
  const ids = CLUSTER_PRESETS.map((c) => c.id);
  const preset = values.cluster !== undefined ? clusterPreset(choice("cluster", values.cluster as string, ids, ids[0])) : undefined;
  const worldSize = preset ? preset.gpusPerNode * preset.nodes : values.gpus !== undefined ? int("gpus", values.gpus as string, 8, 1, 2 ** 20) : undefined;
  try { run = readMegatronLaunch(readFileSync(path, "utf8"), { worldSize }); } catch (e) { throw new UsageError(`--megatron-args ${JSON.stringify(path)}: ${(e as Error).message}`); }
  if (run.worldSize === null) throw new UsageError(`--megatron-args ${JSON.stringify(path)}: the text has no torchrun --nproc_per_node/--nnodes; give --gpus`);
  if (preset) return { run, clusterValues: values };
  return { run, clusterValues: { ...values, gpus: String(run.worldSize) } };
}

function cluster(values: Record<string, string | boolean | undefined>): Cluster {
  const given = ["gpu", "gpus", "gpus-per-node", "inter-node"].filter((k) => values[k] !== undefined);
  if (values.cluster !== undefined) {
    if (given.length) throw new UsageError(`--cluster and --${given[0]} contradict each other: give a preset or the GPU type and counts`);
    const ids = CLUSTER_PRESETS.map((c) => c.id);
    return clusterPreset(choice("cluster", values.cluster as string, ids, ids[0]));
  }
  const gpu = choice("gpu", values.gpu as string | undefined, GPU_PRESETS.map((g) => g.id), "a100-80gb");
  const perNode = int("gpus-per-node", values["gpus-per-node"] as string | undefined, 8, 1, 64);
  const gpus = int("gpus", values.gpus as string | undefined, perNode, 1, 2 ** 20);
  if (gpus % perNode !== 0 && gpus > perNode) throw new UsageError(`--gpus (${gpus}) must be a multiple of --gpus-per-node (${perNode}) when it fills more than one node`);
  const nets = LINK_PRESETS.filter((l) => l.id.startsWith("net")).map((l) => l.id);
  const inter = choice("inter-node", values["inter-node"] as string | undefined, nets, "net-200g");
  return clusterOf(gpu, Math.min(perNode, gpus), Math.max(1, gpus / perNode), inter, 2 * 2 ** 40);
}

/** Communication no computation hides, one step: tensor-parallel, pipeline sends, data-parallel, offload transfers, context- and expert-parallel, and the compute slowed by the hidden collectives' SMs. */
const exposedCommS = (t: PlanResult["time"]) => t.tpCommS + t.pipelineSendS + t.dataParallelExposedS + t.offloadExposedS + t.overlapSlowdownS + t.contextParallelCommS + t.expertParallelCommS;

const fmt = (x: number, d = 0) => x.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });

/** One row of the ranking; `width` is the plan column's, the longest label shown (offload labels are long), so every column stays under its header. */
function row(r: PlanResult, i: number, price: boolean, width: number, fiveD = false): string {
  const t = r.time;
  const comm = exposedCommS(t);
  return [
    String(i + 1).padStart(3), r.label.padEnd(width), fmt(r.tokensPerS).padStart(11), `${(r.mfu * 100).toFixed(1)} %`.padStart(7),
    formatGiB(r.memory.peak.total).padStart(8), fmt(t.totalS, 2).padStart(9), fmt(comm, 2).padStart(14), fmt(t.pipelineBubbleS, 2).padStart(8),
    ...(fiveD ? [String(r.plan.contextParallel ?? 1).padStart(3), String(r.plan.expertParallel ?? 1).padStart(3), fmt(t.contextParallelCommS, 2).padStart(9), fmt(t.expertParallelCommS, 2).padStart(7)] : []),
    ...(price ? [fmt(r.costPerMillionTokens ?? 0, 3).padStart(9)] : []),
  ].join(" ");
}

/** For a mixture of experts: what the plan holds and what a token uses (MFU counts the latter). */
function moeLine(arch: ModelArch): string[] {
  if (!arch.moe || arch.moe.numMoeLayers === 0) return [];
  const p = parameterCount(arch);
  return [`Mixture of experts: ${arch.moe.numExperts} experts, ${arch.moe.topK} per token, in ${arch.moe.numMoeLayers} of ${arch.numLayers} layers; ${(p.total / 1e9).toFixed(1)}B parameters held, ${(p.activeParameters / 1e9).toFixed(1)}B used per token (MFU counts those).`];
}

/** The best plan at each context- and expert-parallel size that was searched: whether the dimension is needed to fit, and what it buys. */
function dimensionLines(r: ReturnType<typeof searchPlans>): string[] {
  const out: string[] = [];
  for (const [dim, name] of [["contextParallel", "context-parallel size C"], ["expertParallel", "expert-parallel size ep"]] as const) {
    const rows = bestByDimension(r, dim);
    if (rows.length < 2) continue;
    out.push("", `Best plan at each ${name}:`);
    for (const row of rows) out.push(`  ${String(row.size).padStart(3)}: ${row.best ? `${row.best.label}, ${fmt(row.best.tokensPerS)} tokens/s` : `nothing fits (closest: ${row.closest!.label}: ${row.closest!.reason})`}`);
    if (rows[0].size === 1 && !rows[0].best && rows.some((x) => x.best)) out.push(`  ${dim === "contextParallel" ? "Context" : "Expert"} parallelism is needed to fit: no plan with ${dim === "contextParallel" ? "C" : "ep"} = 1 fits.`);
  }
  return out;
}

/**
 * The `npm run plan` command as a function: parses `argv`, searches, and
 * returns the exit status and the output (a ranked table, JSON, or the best
 * plan exported).
 * @param argv e.g. ["--model", "llama-2-70b", "--gpus", "64", "--gpu", "h100-80gb", "--global-batch", "1024", "--seq", "4096"]
 * @returns `{code: 0, stdout}`, or `{code: 2, stderr}` naming the flag on bad input
 * @throws nothing: every error is returned as `{code: 2, stderr}`
 * @example main(["--model", "llama-2-7b", "--cluster", "8x-a100-80gb", "--global-batch", "64", "--json"]).code // 0
 * @see {@link searchPlans}, {@link exportPlan}
 */
export function main(argv: readonly string[]): { code: number; stdout: string; stderr: string } {
  try {
    const { values } = parseArgs({ args: normalizeArgv(argv), strict: true, allowPositionals: false, options: OPTIONS });
    if (values.help) return { code: 0, stdout: HELP, stderr: "" };
    const megatron = values["megatron-args"] !== undefined ? loadMegatron(values) : undefined;
    if (values.model === undefined && !megatron) throw new UsageError("give --model <preset|config.json> or --megatron-args <script> (see --help)");
    const arch = megatron ? megatron.run.arch : loadArch(values.model!);
    const c = cluster(megatron ? megatron.clusterValues : values);
    const optimizer = choice<OptimizerName>("optimizer", values.optimizer, ["adamw", "sgd-momentum", "sgd"], "adamw");
    const workload: Workload = megatron ? megatronPlan(megatron.run, optimizer).workload : {
      globalBatch: int("global-batch", values["global-batch"], undefined, 1, 2 ** 24),
      seqLen: int("seq", values.seq, 2048, 1, 2 ** 20),
      precision: choice<Precision>("precision", values.precision, ["fp32", "fp16", "bf16"], "bf16"),
      optimizer,
    };
    // As the estimate: a learned position table has no rows past n_positions (refused, naming --seq); past a rotary model's context, a warning.
    const context = contextWarning(arch, workload.seqLen);
    if (context?.hard) throw new UsageError(`--seq (${workload.seqLen}) exceeds the model's n_positions (${arch.learnedPositions}): its learned position table has no rows beyond that`);
    const warnings = context ? [`--seq ${context.message}`] : [];
    const headroom = values.headroom !== undefined ? num("headroom", values.headroom, 0, 0.99, false) : undefined;
    const price = values.price !== undefined ? num("price", values.price, 0, 1e6, false) : undefined;
    const top = int("top", values.top, 10, 1, 10_000);
    const format = values.export !== undefined ? choice<ExportFormat>("export", values.export, ["deepspeed", "fsdp", "megatron", "torchrun"], "deepspeed") : undefined;
    const cpCommType = choice("cp-comm-type", values["cp-comm-type"], ["p2p", "allgather"], "p2p");
    const judged = { memoryHeadroom: headroom, pricePerGpuHour: price, runtime: { cpCommType } };
    const cps = sizes("cp", values.cp), eps = sizes("ep", values.ep);
    if (eps?.some((x) => x > 1) && !(arch.moe && arch.moe.numMoeLayers > 0)) throw new UsageError(`--ep ${values.ep}: the model (model_type ${JSON.stringify(arch.modelType)}) has no experts`);
    const fp8 = choice("fp8", values.fp8, ["search", "on", "off"], "search");
    if (fp8 === "on" && !c.gpu.peakFlops.fp8) throw new UsageError(`--fp8 on: the ${c.gpu.name} has no FP8 tensor cores`);
    const space = {
      ...(values["no-offload"] ? { offloads: ["none"] as const } : {}), ...(fp8 !== "search" ? { fp8: [fp8 === "on"] } : {}),
      ...(cps ? { contextParallel: cps } : {}), ...(eps ? { expertParallel: eps } : {}),
    };
    const r = searchPlans(arch, c, workload, space, judged);
    // The launch is judged with its own switches (overlaps, gradient dtype, dropout, interleaving); the search with the planner's defaults.
    const given = megatron ? evaluatePlan(arch, megatronPlan(megatron.run, optimizer).plan, c, workload, { ...judged, runtime: { ...megatron.run.runtime, cpCommType } }) : undefined;
    const givenRank = given ? rankAmong(given, r) : null;
    if (format) {
      const exportable = r.ranked.find((x) => { try { exportPlan(x.plan, arch, c, workload, format); return true; } catch { return false; } });
      if (!exportable) throw new UsageError(`no plan that fits can be written as ${format}${r.ranked.length ? ` (the best is ${r.ranked[0].label})` : ""}`);
      const note = exportable === r.ranked[0] ? "" : ` (the best plan, ${r.ranked[0].label}, cannot be written as ${format})`;
      const run = runNote(exportable.plan, format, arch.vocabSize);
      return { code: 0, stdout: exportPlan(exportable.plan, arch, c, workload, format), stderr: `plan: ${exportable.label}${note}\n${run ? `plan: ${run}\n` : ""}` };
    }
    if (values.json) {
      const strip = (x: PlanResult) => ({ label: x.label, plan: x.plan, fits: x.fits, reason: x.reason, peakBytes: x.memory.peak.total, time: x.time, tokensPerS: x.tokensPerS, mfu: x.mfu, costPerMillionTokens: x.costPerMillionTokens });
      const meg = given ? { megatron: { ...strip(given), rank: givenRank, notes: megatron!.run.notes.map((n) => countedNote(n, given.plan)) } } : {};
      return { code: 0, stdout: JSON.stringify({ warnings, searched: r.searched, pruned: r.pruned, ranked: r.ranked.slice(0, top).map(strip), rejected: r.rejected.slice(0, 20).map(strip), ...meg }, null, 2) + "\n", stderr: "" };
    }
    const N = c.gpusPerNode * c.nodes;
    const lines = [
      ...warnings.map((w) => `Warning: ${w}`),
      ...(given ? [
        `Megatron-LM layout of ${values["megatron-args"]}: ${given.label}: ${given.fits ? `rank ${givenRank!.rank} of ${givenRank!.of} that fit, ${fmt(given.tokensPerS)} tokens/s, MFU ${(given.mfu * 100).toFixed(1)} %${r.ranked.length ? `; the best: ${r.ranked[0].label}, ${fmt(r.ranked[0].tokensPerS)} tokens/s` : ""}` : `does not run: ${given.reason}`}`,
        ...megatron!.run.notes.map((n) => `  note: ${countedNote(n, given.plan)}`), "",
      ] : []),
      `Model: ${values.model ?? `${values["megatron-args"]} (Megatron-LM arguments)`}; ${N} × ${c.gpu.name} (${c.nodes} node${c.nodes > 1 ? "s" : ""} of ${c.gpusPerNode}); global batch ${workload.globalBatch} × ${workload.seqLen} tokens; ${workload.precision}, ${workload.optimizer}`,
      `Searched ${fmt(r.searched)} plans: ${fmt(r.ranked.length)} fit, ${fmt(r.rejected.length)} rejected${r.pruned ? ` (and ${fmt(r.pruned)} FP8 twins of plans over memory left out: FP8 only adds memory)` : ""}.`,
      ...moeLine(arch),
      "",
    ];
    if (r.ranked.length) {
      const header = "plan (dp tp pp zero b<micro-batch>×<accumulation>)";
      const width = Math.max(header.length, ...r.ranked.slice(0, top).map((x) => x.label.length));
      // The context- and expert-parallel columns when the search used them (asked for, or a plan shown has C or ep > 1).
      const fiveD = cps !== undefined || eps !== undefined || r.ranked.slice(0, top).some((x) => (x.plan.contextParallel ?? 1) > 1 || (x.plan.expertParallel ?? 1) > 1);
      lines.push(`  # ${header.padEnd(width)} ${"tokens/s".padStart(11)} ${"MFU".padStart(7)} ${"peak GiB".padStart(8)} ${"step s".padStart(9)} ${"exposed comm s".padStart(14)} ${"bubble s".padStart(8)}${fiveD ? ` ${"cp".padStart(3)} ${"ep".padStart(3)} ${"cp comm s".padStart(9)} ${"a2a s".padStart(7)}` : ""}${price !== undefined ? ` ${"$/Mtok".padStart(9)}` : ""}`);
      r.ranked.slice(0, top).forEach((x, i) => lines.push(row(x, i, price !== undefined, width, fiveD)));
      const shown = r.ranked.slice(0, top);
      const ties = shown.slice(1).map((x, i) => [i + 1, i + 2, shown[i], x] as const).filter(([, , a, b]) => a.tokensPerS === b.tokensPerS);
      lines.push(
        "",
        `MFU counts PaLM's model FLOPs (6N + 12·L·H·Q·T per token) over the dense 16-bit peak. A plan fits when its peak memory is at most the GPU's less ${+((headroom ?? DEFAULT_MEMORY_HEADROOM) * 100).toFixed(1)} % headroom (--headroom).`,
        ...(ties.length ? [`Ties: ${ties.map(([i, j]) => `${i} and ${j}`).join(", ")}. In each pair the time model sees the same exposed time (what differs is hidden behind computation, e.g. ZeRO-1 and ZeRO-2's gradient reductions, or is only memory); the plan that needs less memory is listed first: pick it.`] : []),
        `Assumptions of the best plan: ${r.ranked[0].time.assumptions.join("; ")}.`,
      );
    } else if (r.rejected.length === 0) {
      const near = nearestGlobalBatches(arch, c, workload.globalBatch);
      lines.push(`No well-formed plan: with ${fmt(N)} GPUs, no micro-batch b makes b × (data-parallel size) divide the global batch of ${fmt(workload.globalBatch)}, for any tensor and pipeline size the model allows. The nearest global batches that have one: ${near.below !== null ? `${fmt(near.below)} or ` : ""}${fmt(near.above)} (--global-batch); or use fewer GPUs.`);
    } else {
      const best = r.rejected[0];
      const changes = singleChanges(arch, best.plan, c, workload);
      lines.push(`Nothing fits. The closest plan: ${best.label}: ${best.reason}.`, changes.length ? "One change away:" : "No single change brings it closer: use more or larger GPUs, or offload.");
      for (const ch of changes.slice(0, 6)) lines.push(`  ${ch.change}: ${ch.result.fits ? `fits, ${fmt(ch.result.tokensPerS)} tokens/s` : ch.result.reason}`);
    }
    lines.push(...dimensionLines(r));
    const reasons = new Map<string, number>();
    for (const x of r.rejected) { const k = reasonKind(x.reason!); reasons.set(k, (reasons.get(k) ?? 0) + 1); }
    if (reasons.size) {
      lines.push("", "Why the others were rejected:");
      for (const [k, n] of [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 5)) lines.push(`  ${fmt(n).padStart(6)} × ${k.trim()}`);
    }
    return { code: 0, stdout: lines.join("\n") + "\n", stderr: "" };
  } catch (e) {
    let msg = (e as Error).message;
    const unknown = /Unknown option '--([^']+)'/.exec(msg);
    if (unknown) msg += didYouMean(unknown[1], OPTION_NAMES, "--");
    return { code: 2, stdout: "", stderr: `plan: ${msg}\nRun with --help for the options.\n` };
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = main(process.argv.slice(2));
  if (r.stdout) process.stdout.write(r.stdout);
  if (r.stderr) process.stderr.write(r.stderr);
  process.exitCode = r.code;
}
