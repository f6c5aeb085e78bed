import type { CostModel } from "../collectives/index.js";
import { cpCommPerLayer } from "../context-parallel/cpCommPerLayer.js";
import { ringTimeline } from "../context-parallel/ringTimeline.js";
import { ringWork } from "../context-parallel/ringWork.js";
import { sequenceShards } from "../context-parallel/sequenceShards.js";
import { memo } from "./memo.js";

/**
 * Megatron-LM's `--cp-comm-type`: "p2p" (ring attention: K and V passed around the ring, under the blocks'
 * compute; the default) or "allgather" (K and V gathered before attention, as Llama 3 did).
 * @see {@link contextParallelCommTime}
 */
export type CpCommType = "p2p" | "allgather";

/**
 * Options of {@link contextParallelCommTime}.
 * @see {@link contextParallelCommTime}
 */
export interface ContextParallelCommOptions {
  commType: CpCommType;
  seqLen: number;
  /** C, context-parallel ranks. */
  contextParallel: number;
  microBatch: number;
  numHeads: number;
  numKvHeads: number;
  headDim: number;
  /** t: each tensor-parallel rank runs its own ring on its a/t heads (and max(1, G/t) KV heads). */
  tensorParallel: number;
  /** Bytes of a K or V element on the wire (2 for bf16). */
  bytesPerElement: number;
  /** FLOP/s of one GPU on fused attention (the peak × FlashAttention's measured fraction: lib/perf's roofline). */
  attentionFlopsPerS: number;
  /** Link between ring neighbours (one GPU's NVLink inside a node, its network adapter across nodes). */
  ringLink: CostModel;
  /** Link of the group's all-gather (lib/collectives' groupCostModel). */
  groupLink: CostModel;
  /** Attention layers on the busiest pipeline stage. */
  layers: number;
  /** Full recomputation repeats the forward exchange. */
  fullRecompute: boolean;
  /** A search's memo (the work table of a split is counted once). */
  cache?: Map<string, unknown>;
}

/**
 * Context parallelism's key/value exchange for one micro-batch on one pipeline stage, split into what the
 * attention compute hides and what it does not, with chapter 13's functions on a load-balanced (zig-zag) split:
 * - p2p (ring): the forward ring is chapter 13's `ringTimeline` on the split's causal work table (`ringWork` of
 *   `sequenceShards(s, C, "zigzag")`), each block 2·b·(s/C)·h_kv elements, sent while the previous block is computed;
 *   its exposed time is the timeline's `exposedCommS`. Backward passes K, V and their gradients together (twice the
 *   block) behind 2.5 × the forward compute per pair (FlashAttention's backward), and returns the last dK, dV to
 *   their owner (one more block, exposed): `cpCommPerLayer`'s (2C − 1) blocks.
 * - allgather: `cpCommPerLayer("all-gather")` forward, exposed (attention needs the whole K and V first), and the
 *   reduce-scatter of dK, dV backward, the same bytes on the same ring, exposed.
 * Per micro-batch: `layers` × (forward + backward), plus the forward again under full recomputation.
 * @param o see {@link ContextParallelCommOptions}
 * @returns `{exposedS, hiddenS, forwardBytesPerLayer, backwardBytesPerLayer}`: seconds per micro-batch, bytes one rank sends per layer
 * @throws RangeError from lib/context-parallel (`seqLen (100) must be divisible by 2·cpSize (16) for the zigzag layout`, …)
 * @example contextParallelCommTime({ commType: "p2p", seqLen: 131072, contextParallel: 16, microBatch: 1, numHeads: 64, numKvHeads: 8, headDim: 128, tensorParallel: 8,
 *   bytesPerElement: 2, attentionFlopsPerS: 0.35 * 989.5e12, ringLink: nic, groupLink: nic, layers: 10, fullRecompute: false }).exposedS // 0: 8,192 tokens per rank hide the ring
 * @see lib/context-parallel (chapter 13) `ringTimeline`, `ringWork`, `sequenceShards`, `cpCommPerLayer`; Liu et al. 2023, *Ring Attention*, §3;
 *   Dubey et al. 2024, *Llama 3*, §3.3.2 (all-gather of K and V, exposed but small with GQA); Megatron-LM d98e8a6 `megatron/training/arguments.py` (`--cp-comm-type`, default p2p)
 */
export function contextParallelCommTime(o: ContextParallelCommOptions): { exposedS: number; hiddenS: number; forwardBytesPerLayer: number; backwardBytesPerLayer: number } {
  const C = o.contextParallel, t = o.tensorParallel;
  const heads = o.numHeads / t, kvHeads = Math.max(1, o.numKvHeads / t); // one tensor-parallel rank's heads
  const scheme = o.commType === "p2p" ? "ring" : "all-gather";
  const comm = cpCommPerLayer(scheme, {
    seqLen: o.seqLen, cpSize: C, microBatch: o.microBatch, hiddenSize: heads * o.headDim, numHeads: heads, numKvHeads: kvHeads,
    bytesPerElement: o.bytesPerElement, cost: o.commType === "p2p" ? o.ringLink : o.groupLink,
  });
  const passes = o.layers * (o.fullRecompute ? 2 : 1); // forward exchanges per micro-batch
  if (C === 1) return { exposedS: 0, hiddenS: 0, forwardBytesPerLayer: 0, backwardBytesPerLayer: 0 };
  if (o.commType === "allgather") {
    const backwardS = comm.forwardTimeS * (comm.backwardBytes / comm.forwardBytes);
    return { exposedS: passes * comm.forwardTimeS + o.layers * backwardS, hiddenS: 0, forwardBytesPerLayer: comm.forwardBytes, backwardBytesPerLayer: comm.backwardBytes };
  }
  const work = memo(o.cache, `cp work ${o.seqLen} ${C}`, () => ringWork(sequenceShards(o.seqLen, C, "zigzag"), true));
  const blockBytes = comm.forwardBytes / (C - 1);
  const flopsPerPair = 4 * o.headDim * heads * o.microBatch;
  const ring = (bytes: number, flops: number) => ringTimeline({ work, flopsPerPair: flops, deviceFlopsPerS: o.attentionFlopsPerS, blockBytes: bytes, cost: o.ringLink, overlap: true });
  const fwd = ring(blockBytes, flopsPerPair), bwd = ring(2 * blockBytes, 2.5 * flopsPerPair);
  const sendS = (bytes: number) => o.ringLink.alphaS + bytes / o.ringLink.bandwidthBytesPerS;
  const returnS = sendS(blockBytes); // the last dK, dV back to their owner
  const allFwd = (C - 1) * sendS(blockBytes), allBwd = (C - 1) * sendS(2 * blockBytes);
  return {
    exposedS: passes * fwd.exposedCommS + o.layers * (bwd.exposedCommS + returnS),
    hiddenS: passes * Math.max(0, allFwd - fwd.exposedCommS) + o.layers * Math.max(0, allBwd - bwd.exposedCommS),
    forwardBytesPerLayer: comm.forwardBytes, backwardBytesPerLayer: comm.backwardBytes,
  };
}
