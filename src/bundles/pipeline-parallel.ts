// The lib code that src/pipeline-parallel.md imports, bundled into one module by scripts/bundle.ts.
export {naiveSchedule, gpipeSchedule, oneFOneBSchedule, interleavedSchedule, zbH1Schedule, zbH2Schedule, zbVSchedule, dualPipeSchedule, dualPipeVSchedule, stepTime, busyTimes, stageSpans, bubbleFraction, bubbleFractionOfStep, peakInFlight, closedFormBubble, compareSchedules, simulateOptimizerStep, resolveBatch, dataParallelSize, balancePartition, partitionFromBounds} from "../../lib/pipeline-parallel/index.js";
export {createModel, DEFAULT_MODEL} from "../../lib/nn/index.js";
