// What src/context-parallel.md takes from lib/ (scripts/bundle.ts makes it one module, context-parallel.js).
export { sequenceShards, CP_LAYOUTS, mergeAttentionPartials, contextParallelAttention, allGatherAttention, shardSequence, positionMask } from "../../lib/context-parallel/index.js";
export { ringWork, ringWorkSummary, ringTimeline, cpCommPerLayer, cpActivationBytes, minTokensPerRank, megatronRankGroups, LLAMA3_405B, LLAMA3_405B_LAYOUTS } from "../../lib/context-parallel/index.js";
export { referenceAttention, referenceAttentionBackward, randomTensor, maxAbsDiff } from "../../lib/flash-attention/index.js";
export { LINK_PRESETS } from "../../lib/collectives/index.js";
export { GPU_PRESETS } from "../../lib/perf/gpuPresets.js";
