/**
 * Chapter 13, Context parallelism: the sequence split over C ranks, ring
 * attention built from chapter 10's online softmax and chapter 5's simulated
 * World, the load balance of causal masks, the all-gather variant Llama 3 used,
 * DeepSpeed-Ulysses' cost, memory per rank, and how CP groups combine with
 * TP, PP and DP. The gpu.js kernel lives in `ringBlockKernel.ts` (loaded on demand).
 */
export { type CpLayout, CP_LAYOUTS, sequenceShards, checkShards } from "./sequenceShards.js";
export { type SequenceDims, shardSequence, gatherSequence } from "./shardSequence.js";
export { type AttentionPartial, mergeAttentionPartials } from "./mergeAttentionPartials.js";
export { type BlockMaskOptions, type BlockDims, positionMask, blockAttention, blockAttentionBackward } from "./blockAttention.js";
export { type Ring, type SimulatedRing, createRing } from "./createRing.js";
export { type CpShard, type CpShardResult, type RingDims, ringAttention } from "./ringAttention.js";
export { type CpAttentionOptions, type CpAttentionResult, contextParallelAttention } from "./contextParallelAttention.js";
export { type AllGatherAttentionResult, allGatherAttention } from "./allGatherAttention.js";
export { type RingWorkSummary, ringWork, ringWorkSummary } from "./ringWork.js";
export { type TimelineEvent, type RingTimelineOptions, type RingTimeline, ringTimeline } from "./ringTimeline.js";
export { type CpScheme, type CpCommOptions, type CpCommCost, cpCommPerLayer } from "./cpCommPerLayer.js";
export { type CpActivationOptions, type CpActivationBytes, cpActivationBytes } from "./cpActivationBytes.js";
export { type OverlapOptions, minTokensPerRank } from "./minTokensPerRank.js";
export { type ParallelAxis, type RankLayout, megatronRankGroups } from "./megatronRankGroups.js";
export { type CpLayerOptions, type CpLayer, contextParallelLayer } from "./contextParallelLayer.js";
export { type CausalKernel, ringStepByRuns } from "./ringStepByRuns.js";
export { ringForwardOnKernel } from "./ringForwardOnKernel.js";
export { type Llama3Layout, LLAMA3_405B, LLAMA3_405B_LAYOUTS } from "./llama3.js";
export { type CpTrainOptions, type CpTrainResult, trainContextParallel } from "./trainContextParallel.js";
