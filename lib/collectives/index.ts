/**
 * A simulated multi-GPU world and its collectives, written for reading:
 * every collective returns its per-rank result and the log of messages it
 * sent, timed with an α-β cost model. Used by the data-parallel, tensor-parallel,
 * pipeline-parallel, zero, offload and expert-parallel chapters.
 */
export { World, copyBuffers, type Message, type CommEvent, type CommKind, type MessageOp, type WorldOptions, type Topology } from "./World.js";
export { DEFAULT_COST_MODEL, validateCostModel, messageTimeS, checkNumRanks, checkNumElements, checkBytesPerElement, type CostModel } from "./costModel.js";
export { LINK_PRESETS, linkCostModel, type LinkPreset } from "./linkPresets.js";
export { groupCostModel, membersPerNode, type NodeTopology } from "./groupCostModel.js";
export { NCCL_BUS_EFFICIENCY, achievedLink } from "./busEfficiency.js";
export { chunkBounds, type ChunkRange } from "./chunkBounds.js";
export { addChunk, type ReduceFn } from "./addChunk.js";
export { type CollectiveOptions, type CollectiveResult } from "./collectiveResult.js";
export { ringReduceScatterPhase, ringAllGatherPhase, ringReduceScatterPhaseGroups, ringAllGatherPhaseGroups, type RingGroups } from "./ringPhases.js";
export { ringAllReduce } from "./ringAllReduce.js";
export { hierarchicalAllReduce, replayMessages, type HierarchicalAllReduce, type ReduceMessage } from "./hierarchicalAllReduce.js";
export { reduceScatter } from "./reduceScatter.js";
export { allGather } from "./allGather.js";
export { broadcast, type RootedOptions } from "./broadcast.js";
export { reduce } from "./reduce.js";
export { parameterServerAllReduce, type ParameterServerOptions } from "./parameterServerAllReduce.js";
export { binomialTreeSteps, checkRoot } from "./binomialTree.js";
export { replayEvents } from "./replayEvents.js";
export { randomBuffers, naiveSum, firstMismatch, maxSumError } from "./testing.js";
export { mulberry32 } from "../random.js";
export { collectiveCost, ringAllReduceBytesPerRank, type CollectiveAlgorithm, type CollectiveCost } from "./collectiveCost.js";
export { allToAll, type AllToAllOptions } from "./allToAll.js";
export { allToAllCost, uniformAllToAllCost, allToAllLinks, type AllToAllCost } from "./allToAllCost.js";
export { checkSplits, splitOffsets } from "./splits.js";
