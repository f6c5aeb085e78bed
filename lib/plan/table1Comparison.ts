import { parameterCount } from "../memory/index.js";
import { megatronIterationFlops } from "../perf/index.js";
import { clusterPreset, type Cluster } from "./clusterPresets.js";
import { THREE_D_SPACE, type PlanSpace } from "./enumeratePlans.js";
import { gptArch } from "./gptArch.js";
import type { MegatronRun } from "./megatronTable1.js";
import { searchPlans } from "./searchPlans.js";
import type { RuntimeOptions } from "./stepTime.js";

/**
 * Megatron-LM as it ran Table 1 (April 2021, commit aed2f75): the data-parallel all-reduce after
 * backward (`allreduce_gradients` in `train_step`), the tensor-parallel backward all-reduce
 * synchronous (the asynchronous one came in August 2021). Scatter/gather was on.
 * @example MEGATRON_2021_RUNTIME.tpBackwardOverlap // false
 * @see Megatron-LM aed2f75 (2021-04-11) `megatron/training.py` (train_step) and `megatron/mpu/layers.py`; cf7efd4 (2021-08-30, the asynchronous all-reduce)
 */
export const MEGATRON_2021_RUNTIME: Readonly<RuntimeOptions> = Object.freeze({ tpBackwardOverlap: false, overlapGradReduce: false, scatterGather: true });

/**
 * What Megatron-LM offered in April 2021: no distributed optimizer (ZeRO-0), no offload, full
 * recomputation, eager attention, no sequence parallelism, no context or expert parallelism, no FP8
 * (the A100 has none); micro-batches 1 to 8.
 * @example MEGATRON_2021_SPACE.zeroStages // [0]
 * @see Narayanan et al. 2021, §5.1 (activation recomputation, fp16); Korthikanti et al. 2022 (sequence parallelism, 2022);
 *   Megatron-LM's context parallelism (`--context-parallel-size`) came with Megatron-Core in 2023
 */
export const MEGATRON_2021_SPACE: Readonly<PlanSpace> = Object.freeze<PlanSpace>({
  zeroStages: [0], offloads: ["none"], recomputes: ["full"], attentions: ["eager"], sequenceParallel: [false], microBatches: [1, 2, 4, 8], ...THREE_D_SPACE,
});

/**
 * One Table 1 row against the planner.
 * @see {@link compareTable1Row}
 */
export interface Table1Comparison {
  /** Ψ by the paper's count (lib/plan's gptArch). */
  params: number;
  searched: number;
  /** Distinct (t, p) layouts among the plans that fit. */
  layouts: number;
  /** Rank of the published (t, p) among the layouts, by the best plan of each, with today's Megatron overlaps (the planner's defaults); 0 if it does not fit. */
  rank: number;
  /** The same rank with Megatron as it ran in 2021 ({@link MEGATRON_2021_RUNTIME}). */
  rank2021: number;
  /** The planner's best plan (today's overlaps) and its TFLOP/s per GPU by Eq. 3. */
  best: { label: string; teraflopsPerGpu: number };
  /** The best plan of the published layout: its label, and its TFLOP/s per GPU by Eq. 3 as run in 2021 and with today's overlaps. */
  published: { label: string; teraflopsPerGpu2021: number; teraflopsPerGpuToday: number } | null;
  /** Predicted (2021) over published TFLOP/s per GPU. */
  ratio: number;
}

/**
 * Runs the planner on one row of Narayanan et al.'s Table 1 (the row's GPT model, GPUs in DGX
 * A100 nodes with 8 × 200 Gb/s, global batch, s = 2048, fp16, {@link MEGATRON_2021_SPACE}) and
 * places the published (t, p): its rank among the layouts that fit, and its throughput in
 * TFLOP/s per GPU counted as the paper counts it (Eq. 3: lib/perf's megatronIterationFlops over
 * GPUs × step time).
 * @param row a row of MEGATRON_TABLE_1
 * @returns the {@link Table1Comparison}
 * @throws the errors of searchPlans
 * @example compareTable1Row(MEGATRON_TABLE_1[0]).rank // 1: the 1.7B model's t = p = 1 is the planner's best layout
 * @see Narayanan et al. 2021, §5.1 and Table 1
 */
export function compareTable1Row(row: MegatronRun): Table1Comparison {
  const arch = gptArch({ hiddenSize: row.hiddenSize, numLayers: row.numLayers, numHeads: row.numHeads, vocabSize: 51200, seqLen: 2048 });
  const cluster: Cluster = { ...clusterPreset("1024x-a100-80gb"), nodes: row.gpus / 8 };
  const workload = { globalBatch: row.batch, seqLen: 2048, precision: "fp16", optimizer: "adamw" } as const;
  const flops = megatronIterationFlops({ batch: row.batch, seqLen: 2048, numLayers: row.numLayers, hiddenSize: row.hiddenSize, vocabSize: 51200 });
  const tflops = (totalS: number) => flops / row.gpus / totalS / 1e12;
  const search = (runtime: RuntimeOptions) => searchPlans(arch, cluster, workload, MEGATRON_2021_SPACE, { runtime });
  const byLayout = (ranked: ReturnType<typeof search>["ranked"]) => {
    const m = new Map<string, (typeof ranked)[number]>();
    for (const x of ranked) { const k = `${x.plan.tensorParallel}/${x.plan.pipelineParallel}`; if (!m.has(k)) m.set(k, x); }
    return m;
  };
  const key = `${row.tensorParallel}/${row.pipelineParallel}`;
  const today = search({}), then = search(MEGATRON_2021_RUNTIME);
  const layoutsToday = byLayout(today.ranked), layouts2021 = byLayout(then.ranked);
  const rankOf = (m: Map<string, unknown>) => [...m.keys()].indexOf(key) + 1;
  const pubToday = layoutsToday.get(key), pub2021 = layouts2021.get(key);
  const published = pubToday && pub2021 ? { label: pub2021.label, teraflopsPerGpu2021: tflops(pub2021.time.totalS), teraflopsPerGpuToday: tflops(pubToday.time.totalS) } : null;
  return {
    params: parameterCount(arch).total, searched: today.searched, layouts: layoutsToday.size, rank: rankOf(layoutsToday), rank2021: rankOf(layouts2021),
    best: { label: today.ranked[0].label, teraflopsPerGpu: tflops(today.ranked[0].time.totalS) },
    published, ratio: published ? published.teraflopsPerGpu2021 / row.teraflopsPerGpu : NaN,
  };
}
