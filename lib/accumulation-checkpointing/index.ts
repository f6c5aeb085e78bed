/**
 * Chapter 3, gradient accumulation and activation checkpointing: the
 * reference implementations used by the page, the tests and the graders.
 */
export { combineMicroBatchGradients, NORMALIZATIONS, type Normalization, type MicroBatchGradient } from "./combine-micro-batch-gradients.js";
export { accumulateGradients, type AccumulateOptions, type AccumulateResult } from "./accumulate-gradients.js";
export { dataParallelAccumulate, type DataParallelNormalization, type DataParallelResult } from "./data-parallel-accumulate.js";
export { checkSegments, allSegmentations, sqrtSegments } from "./segments.js";
export { simulateCheckpointing, recomputeSchedule, type LayerCost, type CheckpointEvent, type CheckpointSimulation } from "./simulate-checkpointing.js";
export { layerCosts, inputBytes } from "./layer-costs.js";
export { checkpointedStep, type CheckpointOptions, type CheckpointStepResult } from "./checkpointed-step.js";
export { chooseSegments, tradeoff, type SegmentationPoint } from "./choose-segments.js";
export { reentrantGradients, type ReentrantLayer, type ReentrantResult } from "./reentrant-gradients.js";
export { relativeError } from "./relative-error.js";
export { trainAccumulated, trainAccumulatedSteps, ACCUMULATION_MODES, type AccumulationMode, type TrainAccumulatedOptions } from "./train-accumulated.js";
export { ActivationStore, guardBackward } from "./activation-store.js";
export { accumulateCheckpointed, type AccumulateCheckpointedOptions, type AccumulateCheckpointedResult } from "./accumulate-checkpointed.js";
export { accumulationCommunication, type AccumulationCommunicationOptions } from "./accumulation-communication.js";
