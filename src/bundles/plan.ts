// The lib code that src/plan.md imports, bundled into one module by scripts/bundle.ts.
export {CLUSTER_PRESETS, GPU_PRESETS, clusterPreset, enumeratePlans, evaluatePlan, rankResults, singleChanges, modelFlopsUtilization, exportPlan, PLANNER_DEFAULTS, DEFAULT_MEMORY_HEADROOM} from "../../lib/plan/index.js";
// The planner offers every preset: mixtures of experts are searched with expert parallelism.
export {PLANNER_PRESET_NAMES as PRESET_NAMES} from "../../lib/memory/presets.js";
export {largestPlausibleParams} from "../../lib/memory/trainingFlops.js";
export {palmFlopsPerToken} from "../../lib/perf/flopCounts.js";
export {parameterCount} from "../../lib/memory/parameterCount.js";
export {groupCostModel, achievedLink, NCCL_BUS_EFFICIENCY, linkCostModel, collectiveCost} from "../../lib/collectives/index.js";
