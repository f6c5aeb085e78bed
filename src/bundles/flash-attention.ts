// The lib code that src/flash-attention.md imports, bundled into one module by scripts/bundle.ts.
export {referenceAttention, flashAttentionForward, flashBlockSizes, causalMaskRows, isCausalAllowed, logsumexp, onlineSoftmaxInit, onlineSoftmaxUpdate, onlineSoftmaxFinalize, standardAttentionIO, flashAttentionIO, flashAttention2IO, randomTensor, maxAbsDiff, largestSeqLen, createSlowMemory, flashBackwardTiled, flashBackwardIO} from "../../lib/flash-attention/index.js";
export {NOTES_RUNS, impliedDdpBaseline, ddpBaseline} from "../../lib/notesBenchmark.js";
