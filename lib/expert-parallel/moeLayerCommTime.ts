import { uniformAllToAllCost, type CostModel, type Topology } from "../collectives/index.js";

/**
 * One MoE layer's all-to-alls on one micro-batch.
 * @see the sources of {@link moeLayerCommTime}
 */
export interface MoeLayerComm {
  /** Bytes one rank sends in the dispatch (= in the combine): (P−1)/P of its k·tokens·h values. */
  dispatchBytesPerRank: number;
  /** Of those, bytes to other nodes. */
  interNodeBytesPerRank: number;
  /** One all-to-all's time (dispatch or combine), seconds. */
  allToAllS: number;
  /** Forward: dispatch + combine. */
  forwardS: number;
  /** Forward and backward: four all-to-alls (the backward of each is the reverse all-to-all). */
  stepS: number;
}

/**
 * The all-to-all time of one MoE layer on a micro-batch, with every token's k experts spread evenly over the
 * P ranks of the expert-parallel group (the balanced case, dropless): each rank sends S = k·tokens·h·b bytes,
 * (P−1)/P of them off the rank, timed by {@link uniformAllToAllCost} (NVLink inside a node, the network port between nodes).
 *
 * @param o tokens per rank (s·b), h, k, P, bytes per element (2 for bf16), link inside a node, and nodes
 * @returns bytes and seconds (see {@link MoeLayerComm})
 * @throws {RangeError} `tokens must be an integer >= 0, got -1` (likewise hiddenSize, topK); those of uniformAllToAllCost
 * @example moeLayerCommTime({ tokens: 4096, hiddenSize: 4096, topK: 2, epSize: 8, bytesPerElement: 2, cost: { alphaS: 0, bandwidthBytesPerS: 450e9 } }).dispatchBytesPerRank // 58720256 = 7/8 · 2·4096·4096·2
 * @see Lepikhin et al. 2020, *GShard* §3; Rajbhandari et al. 2022, *DeepSpeed-MoE* (the all-to-all of expert parallelism); DeepSeek-AI 2024, *DeepSeek-V3 Technical Report* §3.2.2
 */
export function moeLayerCommTime(o: { tokens: number; hiddenSize: number; topK: number; epSize: number; bytesPerElement: number; cost: CostModel; topology?: Topology }): MoeLayerComm {
  for (const [k, v] of [["tokens", o.tokens], ["hiddenSize", o.hiddenSize], ["topK", o.topK]] as const) if (!Number.isInteger(v) || v < 0) throw new RangeError(`${k} must be an integer >= 0, got ${v}`);
  const S = o.topK * o.tokens * o.hiddenSize * o.bytesPerElement;
  const c = uniformAllToAllCost(S, o.epSize, o.cost, o.topology);
  return { dispatchBytesPerRank: c.maxBytesSentPerRank, interNodeBytesPerRank: c.interNodeBytes / o.epSize, allToAllS: c.timeS, forwardS: 2 * c.timeS, stepS: 4 * c.timeS };
}
