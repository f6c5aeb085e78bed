/**
 * Bytes and time of one attention layer's context-parallel communication per
 * rank, for the ring (pass K and V), the all-gather of K and V (Llama 3) and
 * DeepSpeed-Ulysses (two all-to-alls that trade sequence shards for heads).
 */
import { collectiveCost } from "../collectives/collectiveCost.js";
import { uniformAllToAllCost } from "../collectives/allToAllCost.js";
import { checkNumRanks, validateCostModel, type CostModel } from "../collectives/costModel.js";

/**
 * The three ways of giving every query the keys it needs.
 * @see the sources of {@link cpCommPerLayer}
 */
export type CpScheme = "ring" | "all-gather" | "ulysses";

/**
 * Sizes of the layer and the group.
 * @see the sources of {@link cpCommPerLayer}
 */
export interface CpCommOptions {
  /** s, tokens per sequence. */
  seqLen: number;
  /** C, context-parallel ranks. */
  cpSize: number;
  /** b, sequences per micro-batch. */
  microBatch: number;
  /** h, hidden size = numHeads · head dimension. */
  hiddenSize: number;
  numHeads: number;
  /** Key/value heads (GQA); equal to numHeads for multi-head attention. */
  numKvHeads: number;
  /** Bytes per element on the wire (default 2: bf16). */
  bytesPerElement?: number;
  cost: CostModel;
}

/**
 * Per-rank communication of one layer.
 * @see the sources of {@link cpCommPerLayer}
 */
export interface CpCommCost {
  scheme: CpScheme;
  /** Bytes one rank sends in the forward pass. */
  forwardBytes: number;
  /** Bytes one rank sends in the backward pass. */
  backwardBytes: number;
  /** Time of the forward communication under the α-β model (before any overlap). */
  forwardTimeS: number;
  /** Whether attention compute can hide it: the ring's steps run under the blocks' compute; a gather or all-to-all must finish first. */
  overlapsCompute: boolean;
}

function checkInt(name: string, v: number): void {
  if (!Number.isSafeInteger(v) || v < 1) throw new RangeError(`${name} must be an integer >= 1, got ${v}`);
}

/**
 * Communication per rank of one attention layer under context parallelism.
 *
 * With n = s/C tokens per rank, head dimension h/a and h_kv = (kv heads)·h/a, one rank's K and V
 * are E = 2·b·n·h_kv elements.
 * - ring: forward C−1 sends of E; backward C−1 sends of E again and C of the gradients dK, dV (none when C = 1).
 * - all-gather: forward an all-gather of K and V ((C−1)·E sent per rank); backward a reduce-scatter of
 *   dK, dV ((C−1)·E), K and V kept from the forward pass.
 * - ulysses: an all-to-all of Q, K, V (each rank keeps 1/C of its b·n·(h + 2h_kv) and sends the rest)
 *   and one of the output (b·n·h), forward; the same two backward: (C−1)/C·b·n·(2h + 2h_kv) each way.
 *   Needs C to divide the query heads and the KV heads. Time: the course's all-to-all in one node
 *   (lib/collectives uniformAllToAllCost: α + (C−1)/C of the bytes over B).
 * Bytes = elements · bytesPerElement. C = 1: nothing.
 * @param scheme "ring" | "all-gather" | "ulysses"
 * @param o seqLen, cpSize, microBatch, hiddenSize, numHeads, numKvHeads, bytesPerElement, cost
 * @returns {scheme, forwardBytes, backwardBytes, forwardTimeS, overlapsCompute}
 * @throws RangeError `seqLen (100) must be divisible by cpSize (8)`; `ulysses needs cpSize (16) to divide numKvHeads (8)`;
 *   `numHeads (64) must be divisible by numKvHeads (3)`; `hiddenSize (100) must be divisible by numHeads (64)`
 * @example cpCommPerLayer("ring", {seqLen: 8192, cpSize: 8, microBatch: 1, hiddenSize: 4096, numHeads: 32, numKvHeads: 8, cost: {alphaS: 0, bandwidthBytesPerS: 1e9}}).forwardBytes
 *   // 7 · 2·1024·1024·2 = 29,360,128
 * @see Liu et al. 2023, *Ring Attention*, §3; Dubey et al. 2024, *Llama 3*, §3.3.2; Jacobs et al. 2023, *DeepSpeed Ulysses*, §3
 *   (all-to-all on heads; communication per link 4Nh/P, constant when N and P grow together)
 */
export function cpCommPerLayer(scheme: CpScheme, o: CpCommOptions): CpCommCost {
  for (const k of ["seqLen", "microBatch", "hiddenSize", "numHeads", "numKvHeads"] as const) checkInt(k, o[k]);
  const C = checkNumRanks(o.cpSize, "cpSize");
  const cost = validateCostModel(o.cost);
  const e = o.bytesPerElement ?? 2;
  if (!(e > 0)) throw new RangeError(`bytesPerElement must be a number > 0, got ${e}`);
  if (o.seqLen % C !== 0) throw new RangeError(`seqLen (${o.seqLen}) must be divisible by cpSize (${C})`);
  if (o.hiddenSize % o.numHeads !== 0) throw new RangeError(`hiddenSize (${o.hiddenSize}) must be divisible by numHeads (${o.numHeads})`);
  if (o.numHeads % o.numKvHeads !== 0) throw new RangeError(`numHeads (${o.numHeads}) must be divisible by numKvHeads (${o.numKvHeads})`);
  const n = o.seqLen / C, h = o.hiddenSize, hKv = (o.numKvHeads * h) / o.numHeads, b = o.microBatch;
  const E = 2 * b * n * hKv; // one rank's K and V
  if (scheme === "ring") {
    return { scheme, forwardBytes: (C - 1) * E * e, backwardBytes: C === 1 ? 0 : (2 * C - 1) * E * e, forwardTimeS: C === 1 ? 0 : (C - 1) * (cost.alphaS + (E * e) / cost.bandwidthBytesPerS), overlapsCompute: true };
  }
  if (scheme === "all-gather") {
    const ag = collectiveCost("all-gather", C * E, C, cost, e);
    return { scheme, forwardBytes: ag.maxBytesSentPerRank, backwardBytes: collectiveCost("reduce-scatter", C * E, C, cost, e).maxBytesSentPerRank, forwardTimeS: ag.timeS, overlapsCompute: false };
  }
  if (scheme === "ulysses") {
    if (o.numHeads % C !== 0) throw new RangeError(`ulysses needs cpSize (${C}) to divide numHeads (${o.numHeads})`);
    if (o.numKvHeads % C !== 0) throw new RangeError(`ulysses needs cpSize (${C}) to divide numKvHeads (${o.numKvHeads})`);
    const qkv = uniformAllToAllCost(b * n * (h + 2 * hKv) * e, C, cost); // Q, K, V of the rank's tokens → all tokens of 1/C of the heads
    const out = uniformAllToAllCost(b * n * h * e, C, cost); // and the output back
    const bytes = qkv.maxBytesSentPerRank + out.maxBytesSentPerRank;
    return { scheme, forwardBytes: bytes, backwardBytes: bytes, forwardTimeS: qkv.timeS + out.timeS, overlapsCompute: false };
  }
  throw new RangeError(`scheme must be ring, all-gather or ulysses, got ${JSON.stringify(scheme)}`);
}
