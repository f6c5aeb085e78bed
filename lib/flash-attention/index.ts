/**
 * Chapter 10, FlashAttention: reference attention, FlashAttention's
 * Algorithm 1 with slow-memory counters, its backward pass, and gpu.js
 * kernels (the kernels live in their own modules, `standardAttentionKernels.js`
 * and `flashAttentionKernel.js`, so that pages load gpu.js only when needed).
 */
export { type AttentionShape, type AttentionOptions, type ResolvedAttention, resolveAttention, resolveQKV } from "./shape.js";
export { type CausalAlignment, isCausalAllowed, causalMaskRows } from "./isCausalAllowed.js";
export { logsumexp } from "./logsumexp.js";
export { randomTensor } from "./randomTensor.js";
export { mulberry32 } from "../random.js";
export { flashBlockSizes } from "./flashBlockSizes.js";
export { type IoCount, ioCount, checkBytes, standardAttentionIO, flashAttentionIO, flashAttention2IO } from "./ioCounts.js";
export { type AttentionResult, type ReferenceOptions, referenceAttention } from "./referenceAttention.js";
export { type TileState, type TileInput, flashTileStep } from "./flashTileStep.js";
export { type FlashOptions, type FlashResult, type TraceStep, flashAttentionForward } from "./flashAttentionForward.js";
export { maxAbsDiff } from "./maxAbsDiff.js";
export { MASKED_LOGIT, kernelConstants, restoreMinusInfinity, type KernelConstants } from "./kernelConstants.js";
export { type OnlineSoftmaxState, onlineSoftmaxInit, onlineSoftmaxUpdate, onlineSoftmaxFinalize } from "./onlineSoftmaxUpdate.js";
export { type AttentionGradients, referenceAttentionBackward } from "./referenceAttentionBackward.js";
export { type FlashBackwardOptions, flashAttentionBackward } from "./flashAttentionBackward.js";
export { largestSeqLen } from "./largestSeqLen.js";
export { type LayerFlopShape, attentionFlopShare } from "./attentionFlopShare.js";
export { type SlowTensorName, type SlowMemory, type CountingSlowMemory, SLOW_TENSORS, createSlowMemory } from "./slowMemory.js";
export { type TiledBackwardOptions, flashBackwardTiled, flashBackwardIO } from "./flashBackwardTiled.js";
export { type Workgroup, type WorkgroupDevice, type CountingWorkgroupDevice, createWorkgroupDevice } from "./createWorkgroupDevice.js";
export { workgroupTiles, flashForwardTraffic, flashForwardWorkgroups } from "./flashForwardWorkgroups.js";
