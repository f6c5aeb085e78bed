// The lib code that src/flash-attention.md imports, bundled into one module by scripts/bundle.ts.
export {referenceAttention, flashAttentionForward, flashBlockSizes, causalMaskRows, isCausalAllowed, logsumexp, onlineSoftmaxInit, onlineSoftmaxUpdate, onlineSoftmaxFinalize, standardAttentionIO, flashAttentionIO, flashAttention2IO, randomTensor, maxAbsDiff, largestSeqLen, createSlowMemory, flashBackwardTiled, flashBackwardIO} from "../../lib/flash-attention/index.js";
export {NOTES_RUNS, impliedDdpBaseline, ddpBaseline} from "../../lib/notesBenchmark.js";
export {webgpuFlashTiles} from "../../lib/kernels/webgpu/webgpuFlashTiles.js";
export {DEFAULT_LIMITS} from "../../lib/kernels/webgpu/standardLimit.js";
export {flashForwardTraffic} from "../../lib/flash-attention/flashForwardWorkgroups.js";
