import { allToAllLinks, membersPerNode, type NodeTopology } from "../collectives/index.js";
import { moeLayerCommTime, type MoeLayerComm } from "../expert-parallel/moeLayerCommTime.js";

/**
 * Options of {@link expertParallelCommTime}.
 * @see {@link expertParallelCommTime}
 */
export interface ExpertParallelCommOptions {
  /** Tokens one rank routes per micro-batch: b·s/C, divided by t under sequence parallelism. */
  tokens: number;
  hiddenSize: number;
  topK: number;
  /** ep, ranks of the expert-parallel group. */
  expertParallel: number;
  /** The rank distance between members of the group: the expert tensor-parallel size (t, Megatron's default). */
  stride: number;
  /** The cluster's links, as the planner describes them. */
  topology: NodeTopology;
  /** MoE layers on the busiest pipeline stage. */
  moeLayers: number;
  /** Bytes of an activation element on the wire (2 for bf16). */
  bytesPerElement: number;
  /** Full recomputation repeats the forward all-to-alls. */
  fullRecompute: boolean;
}

/**
 * The all-to-alls of expert parallelism on one pipeline stage for one micro-batch: per MoE layer,
 * a dispatch and a combine forward and the same two backward (chapter 14's `moeLayerCommTime`, balanced routing),
 * two more when full recomputation re-runs the forward, all on the critical path (the experts need the
 * dispatched tokens, the next layer the combined ones; Megatron's 1F1B all-to-all overlap and DeepSeek's
 * DualPipe are not modelled). The group's members sit `stride` ranks apart (Megatron's expert grid
 * orders ETP, then EP), so membersPerNode(ep, stride, G) of them share a node: their bytes to each other
 * go over NVLink and the rest through each rank's own network adapter (lib/collectives' `allToAllLinks`).
 * @param o see {@link ExpertParallelCommOptions}
 * @returns `{perMicroBatchS, layer}`: seconds per micro-batch on the stage, and one layer's {@link MoeLayerComm}
 * @throws RangeError from moeLayerCommTime, membersPerNode and allToAllLinks, e.g. `tokens must be an integer >= 0, got -1`
 * @example expertParallelCommTime({ tokens: 4096, hiddenSize: 4096, topK: 2, expertParallel: 8, stride: 1, topology: h100Node, moeLayers: 32, bytesPerElement: 2, fullRecompute: false }).layer.dispatchBytesPerRank
 *   // 58,720,256 = 7/8 · 2·4096·4096·2: Mixtral's eight ranks inside one node
 * @see lib/expert-parallel moeLayerCommTime (chapter 14); Megatron-LM d98e8a6 `megatron/core/parallel_state.py` (expert grid order
 *   "tp-ep-dp-pp" of the expert `RankGenerator`) and `core/transformer/moe/token_dispatcher.py` (`MoEAlltoAllTokenDispatcher`: A2A(EP) before and after the experts)
 */
export function expertParallelCommTime(o: ExpertParallelCommOptions): { perMicroBatchS: number; layer: MoeLayerComm } {
  const links = allToAllLinks(o.topology);
  const g = membersPerNode(o.expertParallel, o.stride, o.topology.gpusPerNode);
  const layer = moeLayerCommTime({
    tokens: o.tokens, hiddenSize: o.hiddenSize, topK: o.topK, epSize: o.expertParallel, bytesPerElement: o.bytesPerElement,
    cost: links.cost, topology: { ...links.topology, ranksPerNode: g },
  });
  const perLayer = layer.stepS + (o.fullRecompute ? layer.forwardS : 0);
  return { perMicroBatchS: o.moeLayers * perLayer, layer };
}
