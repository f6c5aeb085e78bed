/**
 * Performance models shared by the chapters that time a training step (6, 10, 12):
 * the roofline of a GPU (GEMMs by shape, attention eager or fused, elementwise
 * kernels by bytes) and the FLOP counts the literature reports throughput in.
 */
export { checkRoofline, gemmTime, memoryTimeS, GEMM_TILE, type Roofline, type GemmShape } from "./roofline.js";
export { attentionCoreTime, type AttentionWork } from "./attentionCoreTime.js";
export { moeBlockTime, type MoeBlockShape, type MoeBlockTime, type LinearGemms } from "./moeBlockTime.js";
export { transformerLayerTime, type LayerShape, type LayerWork, type LayerTime, type Linear } from "./transformerLayerTime.js";
export { megatronIterationFlops, matmulParams, palmFlopsPerToken } from "./flopCounts.js";
export { GPU_PRESETS, gpuPreset, gpuRoofline, gpuFp8Roofline, ACHIEVED_HBM_FRACTION, type GpuSpec } from "./gpuPresets.js";
