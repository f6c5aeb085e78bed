// The lib code that src/plan.md imports, bundled into one module by scripts/bundle.ts.
export {CLUSTER_PRESETS, clusterPreset, enumeratePlans, evaluatePlan, rankResults, singleChanges, modelFlopsUtilization, exportPlan, PLANNER_DEFAULTS} from "../../lib/plan/index.js";
// The planner offers the dense presets: it does not model mixtures of experts (lib/plan enumeratePlans refuses them).
export {PLANNER_PRESET_NAMES as PRESET_NAMES} from "../../lib/memory/presets.js";
export {largestPlausibleParams} from "../../lib/memory/trainingFlops.js";
