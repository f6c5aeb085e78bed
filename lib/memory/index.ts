/**
 * Chapter 2, memory: how many bytes a training run needs on each GPU.
 * Browser-safe public API (the CLI's file loading lives in loadPreset.ts).
 */
export { parseModelConfig, LLAMA_STYLE_TYPES } from "./parseModelConfig.js";
export type { ModelArch, ModelFamily, MoeArch, MlaArch } from "./modelArch.js";
export { parameterCount, largestLayerParams, type ParameterBreakdown } from "./parameterCount.js";
export { attentionParamsPerLayer, denseMlpParams, moeBlockParams, type MoeBlockParams } from "./blockParameters.js";
export {
  bytesPerParam, modelStateBytes,
  type AmpDesign, type BytesPerParam, type ModelStateBytes, type ModelStateOptions, type Offload, type OptimizerName, type Precision, type ZeroStage,
} from "./modelStateBytes.js";
export { activationBytesPerLayer, activationBytes, type ActivationOptions, type Recompute } from "./activationBytes.js";
export {
  estimateZero2ModelStatesMemNeeds, estimateZero2ModelStatesMemNeedsBefore2024, estimateZero3ModelStatesMemNeeds,
  type DeepSpeedEstimate, type DeepSpeedSetup, type Zero3Options,
} from "./deepspeedEstimators.js";
export { loraEstimate, type LoraEstimate, type LoraTarget } from "./loraEstimate.js";
export { estimateMemory, fitsInMemory, CONVENTION, type MemoryBreakdown, type MemoryEstimate, type PeakEstimate, type TrainingSetup } from "./estimateMemory.js";
export { transientBytes, peakBytes, type Attention, type LossKernel, type PeakPhase, type TransientLine, type TransientOptions } from "./peakMemory.js";
export { trainingFlopsPerToken, achievedFlopsPerGpu, largestPlausibleParams, A100_DENSE_FP16_FLOPS, type ThroughputRun } from "./trainingFlops.js";
export { PRESET_NAMES, MOE_PRESET_NAMES, PLANNER_PRESET_NAMES, isPresetName, type PresetName } from "./presets.js";
export { GiB, formatGiB } from "./units.js";
export { firstStageActivationBytes, inFlightChunks, type PipelineActivationOptions, type PipelineSchedule } from "./firstStageActivationBytes.js";
export { PARALLEL_MEMORY_EXAMPLES, exampleArgv, exampleSetup, parallelMemoryRows, type ParallelMemoryExample } from "./parallelMemoryExamples.js";
export { contextWarning } from "./contextWarning.js";
export { architectureNotes } from "./architectureNotes.js";
