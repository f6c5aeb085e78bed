/**
 * Chapter 3, gradient accumulation and activation checkpointing: the
 * reference implementations used by the page, the tests and the graders.
 */
export { combineMicroBatchGradients, NORMALIZATIONS, type Normalization, type MicroBatchGradient } from "./combineMicroBatchGradients.js";
export { accumulateGradients, type AccumulateOptions, type AccumulateResult } from "./accumulateGradients.js";
export { dataParallelAccumulate, type DataParallelNormalization, type DataParallelResult } from "./dataParallelAccumulate.js";
export { checkSegments, allSegmentations, sqrtSegments } from "./segments.js";
export { simulateCheckpointing, recomputeSchedule, type LayerCost, type CheckpointEvent, type CheckpointSimulation } from "./simulateCheckpointing.js";
export { layerCosts, inputBytes } from "./layerCosts.js";
export { checkpointedStep, type CheckpointOptions, type CheckpointStepResult } from "./checkpointedStep.js";
export { chooseSegments, tradeoff, type SegmentationPoint } from "./chooseSegments.js";
export { optimalSegments } from "./optimalSegments.js";
export { reentrantGradients, type ReentrantLayer, type ReentrantResult } from "./reentrantGradients.js";
export { relativeError } from "./relativeError.js";
export { trainAccumulated, trainAccumulatedSteps, ACCUMULATION_MODES, type AccumulationMode, type TrainAccumulatedOptions } from "./trainAccumulated.js";
export { ActivationStore, guardBackward } from "./ActivationStore.js";
export { accumulateCheckpointed, type AccumulateCheckpointedOptions, type AccumulateCheckpointedResult } from "./accumulateCheckpointed.js";
export { accumulationCommunication, type AccumulationCommunicationOptions } from "./accumulationCommunication.js";
