/**
 * Offload (chapter 9, `offload`): the CPU and NVMe as more memory for training.
 * ZeRO-Offload's timeline and its delayed update, ZeRO-3 parameter offload,
 * ZeRO-Infinity's NVMe tier, memory per component beside DeepSpeed's
 * estimators, the Adam step, and Colossal-AI Gemini's chunks and placement.
 *
 * The gpu.js Adam kernel is not exported here (importing it loads gpu.js):
 * import `./createGpuAdam.js` where a kernel runs.
 */
export { DEFAULT_OFFLOAD_HARDWARE, ADAM_BYTES_PER_ELEMENT, CPU_ADAM_BYTES_PER_ELEMENT, validateHardware, type OffloadHardware, type HardwareOptions, type Link } from "./offloadHardware.js";
export { resolveOffloadConfig, type OffloadConfig, type ResolvedOffloadConfig, type OffloadDevice } from "./resolveOffloadConfig.js";
export { simulateOffloadStep, LANES, type Lane, type OffloadEvent, type OffloadEventKind, type OffloadTimeline } from "./simulateOffloadStep.js";
export { offloadMemory, type OffloadMemory, type MemoryParts } from "./offloadMemory.js";
export { trainWithDpu, type DpuTrainOptions, type DpuTrainResult } from "./trainWithDpu.js";
export { adamLoop, adamHyper } from "./adamLoop.js";
export { packChunks, checkSizes, type Chunk } from "./packChunks.js";
export { searchChunkSize, type ChunkSearchOptions, type ChunkSearchResult } from "./searchChunkSize.js";
export { recordMemStats, type OperatorStat } from "./recordMemStats.js";
export { simulateGemini, type GeminiConfig, type GeminiResult, type GeminiEvent, type PlacementPolicy } from "./simulateGemini.js";
export { geminiDemo, GEMINI_DEMO_ROWS, type GeminiDemo } from "./geminiDemo.js";
export { chooseEvictions, type EvictionInput } from "./chooseEvictions.js";
export { offloadStep, type OffloadState, type OffloadStepConfig } from "./offloadStep.js";
export { trainOffloaded, type OffloadStepFn, type TrainOffloadedOptions } from "./trainOffloaded.js";
export { normwiseUlps } from "./normwiseUlps.js";
