/**
 * Chapter 12, plan: choose how to train a model on a cluster. Every number
 * comes from the chapters' own functions (memory from chapter 2, collectives
 * from chapter 5, tensor parallelism from chapter 6, the bubble from chapter 7).
 */
export { GPU_PRESETS, gpuPreset, type GpuSpec } from "./gpuPresets.js";
export { CLUSTER_PRESETS, clusterPreset, checkCluster, type Cluster, type ClusterPreset } from "./clusterPresets.js";
export { planLabel, type Plan, type Workload } from "./planLabel.js";
export { enumeratePlans, checkWorkload, type PlanSpace } from "./enumeratePlans.js";
export { stepTime, type StepTime, type StepTimeOptions } from "./stepTime.js";
export { evaluatePlan, type EvaluateOptions, type PlanResult } from "./evaluatePlan.js";
export { searchPlans, rankResults, singleChanges, type SearchResult, type SingleChange } from "./searchPlans.js";
export { MEGATRON_TABLE_1, type MegatronRun } from "./megatronTable1.js";
export { gptArch } from "./gptArch.js";
export { exportPlan, type ExportFormat } from "./exportPlan.js";
export { modelFlopsUtilization } from "./modelFlopsUtilization.js";
export { rejectionReason, reasonKind } from "./rejectionReason.js";
export { dataParallelCommTime, type DataParallelCommOptions } from "./dataParallelCommTime.js";
export { PLANNER_DEFAULTS } from "./plannerDefaults.js";
export { readMegatronLaunch, type MegatronLaunch } from "./readMegatronLaunch.js";
export { megatronPlan, rankAmong } from "./megatronPlan.js";
export { shellFlags, type ShellFlag } from "./shellFlags.js";
