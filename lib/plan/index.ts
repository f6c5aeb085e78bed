/**
 * Chapter 12, plan: choose how to train a model on a cluster, in five dimensions (data, tensor, pipeline,
 * context and expert parallelism) with ZeRO, offload, recomputation and FP8. Every number comes from the
 * chapters' own functions (memory from chapter 2, collectives from chapter 5, tensor parallelism from
 * chapter 6, the bubble from chapter 7, ZeRO from chapter 8, context parallelism from chapter 13, experts
 * from chapter 14, the roofline from lib/perf).
 */
export { GPU_PRESETS, gpuPreset, gpuRoofline, type GpuSpec } from "../perf/gpuPresets.js";
export { CLUSTER_PRESETS, clusterPreset, clusterOf, checkCluster, type Cluster, type ClusterPreset } from "./clusterPresets.js";
export { planLabel, planSizes, type Plan, type Workload } from "./planLabel.js";
export { enumeratePlans, checkWorkload, layouts, DEFAULT_MICRO_BATCHES, MIN_CP_CHUNK, THREE_D_SPACE, type PlanSpace } from "./enumeratePlans.js";
export { layoutRule } from "./layoutRule.js";
export { nearestGlobalBatches } from "./nearestGlobalBatches.js";
export { stepTime, OVERLAP_COMM_SMS, type StepTime, type StepTimeOptions, type RuntimeOptions } from "./stepTime.js";
export { microBatchTime, layerShape, moeLayerShape, type MicroBatchTime, type TensorParallelRuntime } from "./microBatchTime.js";
export { DEFAULT_MEMORY_HEADROOM, usableMemoryBytes, checkHeadroom } from "./memoryHeadroom.js";
export { evaluatePlan, type EvaluateOptions, type PlanResult } from "./evaluatePlan.js";
export { searchPlans, judgePlans, rankResults, singleChanges, type SearchResult, type SingleChange } from "./searchPlans.js";
export { MEGATRON_TABLE_1, type MegatronRun } from "./megatronTable1.js";
export { compareTable1Row, MEGATRON_2021_RUNTIME, MEGATRON_2021_SPACE, type Table1Comparison } from "./table1Comparison.js";
export { PUBLISHED_RUNS, predictPublishedRun, type PublishedRun } from "./publishedRuns.js";
export { planRuntime, megatronExtraStateBytes } from "./planRuntime.js";
export { gptArch } from "./gptArch.js";
export { exportPlan, runNote, type ExportFormat } from "./exportPlan.js";
export { modelFlopsUtilization } from "./modelFlopsUtilization.js";
export { rejectionReason, reasonKind } from "./rejectionReason.js";
export { dataParallelCommTime, dataParallelCollectives, type DataParallelCommOptions, type DataParallelCollective } from "./dataParallelCommTime.js";
export { PLANNER_DEFAULTS } from "./plannerDefaults.js";
export { readMegatronLaunch, type MegatronLaunch } from "./readMegatronLaunch.js";
export { megatronPlan, rankAmong } from "./megatronPlan.js";
export { shellFlags, type ShellFlag } from "./shellFlags.js";
export { bestByDimension, type PlanDimension, type DimensionRow } from "./bestByDimension.js";
export { contextParallelCommTime, type CpCommType, type ContextParallelCommOptions } from "./contextParallelCommTime.js";
export { expertParallelCommTime, type ExpertParallelCommOptions } from "./expertParallelCommTime.js";
export { memo } from "./memo.js";
