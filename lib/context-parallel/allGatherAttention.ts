/**
 * The all-gather form of context-parallel attention that Llama 3 trained with:
 * gather every rank's keys and values first, then attend locally; backward,
 * reduce-scatter the key and value gradients back to their owners.
 */
import { allGather } from "../collectives/allGather.js";
import { reduceScatter } from "../collectives/reduceScatter.js";
import type { CommEvent } from "../collectives/World.js";
import type { CostModel } from "../collectives/costModel.js";
import { blockAttention, blockAttentionBackward, type BlockMaskOptions } from "./blockAttention.js";
import { checkShards } from "./sequenceShards.js";
import type { CpShard, CpShardResult, RingDims } from "./ringAttention.js";

/**
 * What {@link allGatherAttention} returns.
 * @see the sources of {@link allGatherAttention}
 */
export interface AllGatherAttentionResult {
  results: CpShardResult[];
  /** The all-gather's messages, then (with dO) the reduce-scatter's, on one clock. */
  events: CommEvent[];
  bytesSent: number[];
  /** Seconds of communication (none of it overlapped: the attention waits for the gather). */
  commS: number;
}

/** (C ranks × (B, H, n, d)) packed rank after rank → (B, H, C·n, d). */
function rankMajorToSequence(flat: Float32Array, C: number, dims: RingDims, at: number, stride: number): Float32Array {
  const { B, H, n, d } = dims;
  const out = new Float32Array(B * H * C * n * d);
  for (let r = 0; r < C; r++) for (let bh = 0; bh < B * H; bh++) {
    out.set(flat.subarray(r * stride + at + bh * n * d, r * stride + at + (bh + 1) * n * d), (bh * C * n + r * n) * d); // (B, H, C·n, d)
  }
  return out;
}

/**
 * Context-parallel attention by all-gathering K and V (Llama 3, §3.3.2).
 *
 * Forward: one ring all-gather of every rank's K and V (packed, 2·B·H·n·d elements per rank), then
 * each rank attends with its queries to all N = C·n keys under the mask of the global positions
 * (causal and document masks alike: the whole row of keys is there). Backward (with dO on every
 * shard): each rank computes dq and the gradients of all N keys and values from its queries; one ring
 * reduce-scatter sums them and leaves each rank the dk, dv of its own tokens. Per rank: (C−1)·2·B·H·n·d
 * elements sent forward, as much again backward, the same bytes as the ring, but exposed.
 * @param shards one CpShard per rank (as ringAttention)
 * @param dims B, H, n, d per rank
 * @param o causal, docIds, scale; cost (α-β), bytesPerElement (default 4)
 * @returns per-rank results, the collectives' events, bytes sent per rank, communication seconds
 * @throws RangeError as ringAttention (`dO must be given for every shard or for none`, checkShards)
 * @example allGatherAttention(shards, {B: 1, H: 1, n: 2, d: 1}, {causal: true}).results[0].O // equals ringAttention's
 * @see Dubey et al. 2024, *The Llama 3 Herd of Models*, §3.3.2 (all-gather K and V, then local attention; chosen for document
 *   masks and because GQA makes K and V small); Transformer Engine `context_parallel.py` `AttnFuncWithCPAndKVAllGather`, commit d0067d0
 */
export function allGatherAttention(shards: readonly CpShard[], dims: RingDims, o: BlockMaskOptions & { cost?: CostModel; bytesPerElement?: number } = {}): AllGatherAttentionResult {
  const C = shards.length;
  checkShards(shards.map((s) => s.positions));
  const withGrad = shards.filter((s) => s.dO).length;
  if (withGrad !== 0 && withGrad !== C) throw new RangeError("dO must be given for every shard or for none");
  const { B, H, n, d } = dims;
  const len = B * H * n * d;
  const opts = { cost: o.cost, bytesPerElement: o.bytesPerElement };
  const packed = shards.map((s) => { const b = new Float32Array(2 * len); b.set(s.k); b.set(s.v, len); return b; });
  const gathered = allGather(packed, opts);
  const all = gathered.result[0]; // every rank holds the same C·2·len elements
  const K = rankMajorToSequence(all, C, dims, 0, 2 * len), V = rankMajorToSequence(all, C, dims, len, 2 * len);
  const allPos = shards.flatMap((s) => [...s.positions]);
  const blk = { B, H, nq: n, nk: C * n, d };
  const mask = { causal: o.causal, docIds: o.docIds, scale: o.scale };
  const fwd = shards.map((s) => blockAttention(s.q, K, V, blk, s.positions, allPos, mask));
  const events = [...gathered.events];
  const bytesSent = [...gathered.bytesSentPerRank];
  if (withGrad === 0) return { results: fwd.map((f) => ({ O: f.O, lse: f.lse })), events, bytesSent, commS: gathered.timeS };
  const grads = shards.map((s, r) => blockAttentionBackward(s.q, K, V, fwd[r].O, s.dO!, fwd[r].lse, blk, s.positions, allPos, mask));
  // Each rank's gradients of all N keys and values, packed owner after owner as the gather was: chunk r is rank r's (dK | dV).
  const toOwners = grads.map((g) => {
    const buf = new Float32Array(C * 2 * len);
    for (let owner = 0; owner < C; owner++) for (let bh = 0; bh < B * H; bh++) {
      const from = (bh * C * n + owner * n) * d; // (B, H, C·n, d)
      buf.set(g.dK.subarray(from, from + n * d), owner * 2 * len + bh * n * d);
      buf.set(g.dV.subarray(from, from + n * d), owner * 2 * len + len + bh * n * d);
    }
    return buf;
  });
  const scattered = reduceScatter(toOwners, opts);
  for (const e of scattered.events) events.push({ ...e, t: e.t + gathered.timeS, tEnd: e.tEnd + gathered.timeS });
  scattered.bytesSentPerRank.forEach((b, r) => (bytesSent[r] += b));
  const results = fwd.map((f, r) => ({ O: f.O, lse: f.lse, dq: grads[r].dQ, dk: scattered.result[r].slice(0, len), dv: scattered.result[r].slice(len) }));
  return { results, events, bytesSent, commS: gathered.timeS + scattered.timeS };
}
