import { estimateMemory, type MemoryBreakdown, type TrainingSetup } from "./estimateMemory.js";
import { parseModelConfig } from "./parseModelConfig.js";
import type { PresetName } from "./presets.js";
import type { PipelineSchedule } from "./firstStageActivationBytes.js";

/**
 * One tensor/pipeline-parallel set-up the pages show, given once as its
 * `npm run estimate` flags: the page's figures and the CLI's `--json` come from
 * the same inputs (a test runs both and compares them).
 * @see {@link PARALLEL_MEMORY_EXAMPLES}
 */
export interface ParallelMemoryExample {
  /** The chapter whose page shows it. */
  chapter: "tensor-parallel" | "pipeline-parallel";
  /** Row label on the page. */
  label: string;
  model: PresetName;
  gpus: number;
  tp: number;
  pp: number;
  sp: boolean;
  zero: 0 | 1;
  microBatch: number;
  seq: number;
  recompute: "none" | "selective";
  /** m; undefined: the CLI's default (p). */
  microBatches?: number;
  schedule: PipelineSchedule;
  virtualStages?: number;
}

const base = { model: "llama-2-13b", gpus: 8, zero: 1, microBatch: 1, seq: 4096, recompute: "selective", schedule: "1f1b", sp: false } as const;

/**
 * The set-ups of the tensor- and pipeline-parallel pages: Llama-2-13B (40 heads,
 * 40 layers, Hugging Face config.json) on 8 GPUs in bf16 with AdamW and ZeRO-1,
 * 4096 tokens, one sequence per micro-batch, selective recomputation (Megatron's
 * usual setting: the a·s² attention tensors are recomputed, Korthikanti §5).
 * @example PARALLEL_MEMORY_EXAMPLES.filter((e) => e.chapter === "pipeline-parallel").length // 5
 * @see Korthikanti et al. 2022 §4.2 (t, sequence parallelism) and §4.2.3 (p, micro-batches); lib/memory/configs/SOURCES.txt
 */
export const PARALLEL_MEMORY_EXAMPLES: readonly ParallelMemoryExample[] = [
  { ...base, chapter: "tensor-parallel", label: "data parallel only (t = 1)", tp: 1, pp: 1 },
  { ...base, chapter: "tensor-parallel", label: "t = 8", tp: 8, pp: 1 },
  { ...base, chapter: "tensor-parallel", label: "t = 8 + sequence parallel", tp: 8, pp: 1, sp: true },
  { ...base, chapter: "pipeline-parallel", label: "1F1B, m = 1", tp: 2, pp: 4, microBatches: 1 },
  { ...base, chapter: "pipeline-parallel", label: "1F1B, m = 4", tp: 2, pp: 4, microBatches: 4 },
  { ...base, chapter: "pipeline-parallel", label: "1F1B, m = 16", tp: 2, pp: 4, microBatches: 16 },
  { ...base, chapter: "pipeline-parallel", label: "GPipe, m = 16", tp: 2, pp: 4, microBatches: 16, schedule: "gpipe" },
  { ...base, chapter: "pipeline-parallel", label: "interleaved v = 2, m = 16", tp: 2, pp: 4, microBatches: 16, schedule: "interleaved", virtualStages: 2 },
];

/**
 * The `npm run estimate` arguments of an example (without `--json`).
 * @example exampleArgv(PARALLEL_MEMORY_EXAMPLES[1]) // ["--model", "llama-2-13b", "--gpus", "8", "--tp", "8", "--pp", "1", …]
 * @see lib/memory/cli.ts HELP
 */
export function exampleArgv(e: ParallelMemoryExample): string[] {
  return [
    "--model", e.model, "--gpus", String(e.gpus), "--tp", String(e.tp), "--pp", String(e.pp), "--zero", String(e.zero),
    "--precision", "bf16", "--optimizer", "adamw", "--micro-batch", String(e.microBatch), "--seq", String(e.seq), "--recompute", e.recompute,
    ...(e.pp > 1 ? ["--schedule", e.schedule] : []),
    ...(e.sp ? ["--sp"] : []), ...(e.microBatches !== undefined ? ["--micro-batches", String(e.microBatches)] : []),
    ...(e.virtualStages !== undefined ? ["--virtual-stages", String(e.virtualStages)] : []),
  ];
}

/**
 * The same example as {@link estimateMemory}'s input, given the model's config.json text.
 * @param e the example
 * @param configText the text of `lib/memory/configs/<e.model>.json`
 * @returns a {@link TrainingSetup}
 * @example exampleSetup(PARALLEL_MEMORY_EXAMPLES[0], text).tensorParallel // 1
 * @see {@link exampleArgv} (the same set-up as CLI flags)
 */
export function exampleSetup(e: ParallelMemoryExample, configText: string): TrainingSetup {
  return {
    arch: parseModelConfig(configText), numGpus: e.gpus, tensorParallel: e.tp, pipelineParallel: e.pp, sequenceParallel: e.sp,
    zeroStage: e.zero, precision: "bf16", optimizer: "adamw", microBatch: e.microBatch, seqLen: e.seq, recompute: e.recompute,
    microBatches: e.microBatches, pipelineSchedule: e.schedule, virtualStages: e.virtualStages,
  };
}

/**
 * The rows the pages show: each example's bytes per GPU and its command line.
 * @param chapter which page's rows
 * @param configText reads a preset's config.json text (Node: loadPresetText)
 * @returns per example: label, the CLI command, `perGpu` (bytes) and `peak` (bytes)
 * @example parallelMemoryRows("tensor-parallel", loadPresetText)[2].perGpu.activations // t = 8 with sequence parallelism
 * @see {@link estimateMemory}
 */
export function parallelMemoryRows(chapter: ParallelMemoryExample["chapter"], configText: (name: PresetName) => string):
  { label: string; command: string; perGpu: MemoryBreakdown; peak: number; notes: string[] }[] {
  return PARALLEL_MEMORY_EXAMPLES.filter((e) => e.chapter === chapter).map((e) => {
    const r = estimateMemory(exampleSetup(e, configText(e.model)));
    return { label: e.label, command: `npm run estimate -- ${exampleArgv(e).join(" ")}`, perGpu: r.perGpu, peak: r.peak.total, notes: r.notes };
  });
}
