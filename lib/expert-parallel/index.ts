/**
 * Chapter 14, expert parallelism (mixture of experts): the public API of lib/expert-parallel (what the page and the graders import).
 * The MoE block itself (routing, capacity, losses, experts) is lib/nn's; the all-to-all and its cost are lib/collectives'.
 */
export { localExpertCount, expertOwner } from "./expertPlacement.js";
export { planDispatch } from "./planDispatch.js";
export type { RankRouting, DispatchOptions, DispatchMessage, DispatchPlan, EpGroup, EpRank, EpMoeOptions, EpMoeStep, LoggedMessage, DispatchSetup, DispatchDiagnosis } from "./types.js";
export { EpComm, type EpCommRecord } from "./EpComm.js";
export { expertParallelMoe } from "./expertParallelMoe.js";
export { trainExpertParallel, type TrainExpertParallelOptions, type TrainExpertParallelResult } from "./trainExpertParallel.js";
export { maskedRankGroups } from "./maskedRankGroups.js";
export { moeParallelGroups, type MoeParallelSizes, type MoeParallelGroups } from "./moeParallelGroups.js";
export { activeParameters, moeParameterSplit, moeMemoryPerGpu, moeActivationBytes, type MoeParameterSplit, type MoeMemoryLayout, type MoeMemoryPerGpu, type MoeActivationBytes } from "./moeMemory.js";
export { groupLimitedTopK, tokenCopies, meanTokenCopies, type TokenCopies } from "./nodeLimitedRouting.js";
export { smallestCapacityFactor } from "./smallestCapacityFactor.js";
export { diagnoseDispatch } from "./diagnoseDispatch.js";
export { moeLayerCommTime, type MoeLayerComm } from "./moeLayerCommTime.js";
export { MOE_COMPARISON, BALANCING_RUNS, modelParameters, loadImbalance, trainMoeDemo, type MoeDemo } from "./moeDemos.js";
