/**
 * Context-parallel attention end to end: split the sequence over C ranks with a
 * layout, run ring attention on a simulated ring, gather the results back, and
 * keep the ring's message log.
 */
import type { CommEvent } from "../collectives/World.js";
import type { CostModel } from "../collectives/costModel.js";
import { createRing } from "./createRing.js";
import { ringAttention } from "./ringAttention.js";
import { sequenceShards, type CpLayout } from "./sequenceShards.js";
import { gatherSequence, shardSequence, type SequenceDims } from "./shardSequence.js";
import type { BlockMaskOptions } from "./blockAttention.js";

/**
 * Options of {@link contextParallelAttention}.
 * @see the sources of {@link contextParallelAttention}
 */
export interface CpAttentionOptions extends BlockMaskOptions {
  cpSize: number;
  layout: CpLayout;
  /** (B, H, N, d): run the backward pass too. */
  dO?: Float32Array;
  cost?: CostModel;
  /** Bytes per element on the wire (default 4, float32). */
  bytesPerElement?: number;
}

/**
 * What {@link contextParallelAttention} returns.
 * @see the sources of {@link contextParallelAttention}
 */
export interface CpAttentionResult {
  /** (B, H, N, d) and (B, H, N), gathered back in sequence order. */
  O: Float32Array;
  lse: Float32Array;
  /** With dO: the gradients, (B, H, N, d) each. */
  dQ?: Float32Array;
  dK?: Float32Array;
  dV?: Float32Array;
  /** Each rank's positions. */
  shards: number[][];
  /** Every message of the ring. */
  events: CommEvent[];
  /** Bytes each rank sent. */
  bytesSent: number[];
  /** Ring steps that carried messages. */
  numSteps: number;
}

/**
 * Attention of a (B, H, N, d) sequence computed by cpSize simulated ranks with ring attention.
 * @param q (B, H, N, d) queries
 * @param k (B, H, N, d) keys
 * @param v (B, H, N, d) values
 * @param dims B, H, N, d
 * @param o cpSize, layout, causal, docIds, scale, dO, cost, bytesPerElement
 * @returns O, lse (and dQ, dK, dV with dO), the shards and the ring's log
 * @throws RangeError from sequenceShards (e.g. `seqLen (10) must be divisible by 2·cpSize (8) for the zigzag layout`) and ringAttention
 * @example contextParallelAttention(q, k, v, {B: 1, H: 2, N: 16, d: 4}, {cpSize: 4, layout: "zigzag", causal: true}).bytesSent
 *   // [1536, 1536, 1536, 1536]: 3 steps of K and V (2·1·2·4·4 elements of 4 bytes)
 * @see Liu et al. 2023, *Ring Attention*, §3; Megatron-LM `--context-parallel-size`; lib/context-parallel/ringAttention.ts
 */
export function contextParallelAttention(q: Float32Array, k: Float32Array, v: Float32Array, dims: SequenceDims, o: CpAttentionOptions): CpAttentionResult {
  const { B, H, N, d } = dims;
  const shards = sequenceShards(N, o.cpSize, o.layout);
  const ring = createRing(o.cpSize, { cost: o.cost, bytesPerElement: o.bytesPerElement });
  const part = (x: Float32Array, r: number) => shardSequence(x, dims, shards[r]);
  const results = ringAttention(ring, shards.map((positions, r) => ({ q: part(q, r), k: part(k, r), v: part(v, r), positions, ...(o.dO ? { dO: part(o.dO, r) } : {}) })),
    { B, H, n: N / o.cpSize, d }, { causal: o.causal, docIds: o.docIds, scale: o.scale });
  const gather = (key: "O" | "dq" | "dk" | "dv") => gatherSequence(results.map((r) => r[key]!), dims, shards);
  return {
    O: gather("O"),
    lse: gatherSequence(results.map((r) => r.lse), { B, H, N, d: 1 }, shards),
    ...(o.dO ? { dQ: gather("dq"), dK: gather("dk"), dV: gather("dv") } : {}),
    shards, events: ring.events, bytesSent: [...ring.bytesSent], numSteps: ring.numSteps,
  };
}
