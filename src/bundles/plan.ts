// The lib code that src/plan.md imports, bundled into one module by scripts/bundle.ts.
export {CLUSTER_PRESETS, clusterPreset, enumeratePlans, evaluatePlan, rankResults, singleChanges, modelFlopsUtilization, exportPlan, PLANNER_DEFAULTS} from "../../lib/plan/index.js";
export {PRESET_NAMES} from "../../lib/memory/presets.js";
export {largestPlausibleParams} from "../../lib/memory/trainingFlops.js";
