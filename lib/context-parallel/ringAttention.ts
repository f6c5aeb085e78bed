/**
 * Ring attention, forward and backward, on a simulated ring of C ranks: each
 * rank keeps its queries and passes key/value blocks around the ring, merging
 * each block's partial result with the log-sum-exp rule; backward, the key/value
 * gradients travel with their blocks and come home after C steps.
 */
import { blockAttention, blockAttentionBackward, type BlockMaskOptions } from "./blockAttention.js";
import { mergeAttentionPartials, type AttentionPartial } from "./mergeAttentionPartials.js";
import { checkShards } from "./sequenceShards.js";
import type { Ring } from "./createRing.js";

/**
 * One rank's part of the attention inputs: q, k, v (B, H, n, d) at its global positions (n), and
 * optionally dO (B, H, n, d), the gradient of the loss with respect to its output.
 * @see the sources of {@link ringAttention}
 */
export interface CpShard {
  q: Float32Array;
  k: Float32Array;
  v: Float32Array;
  positions: readonly number[];
  dO?: Float32Array;
}

/**
 * One rank's result: O (B, H, n, d) and lse (B, H, n) for its queries; with dO, its dq and the
 * dk, dv of its own keys and values (B, H, n, d).
 * @see the sources of {@link ringAttention}
 */
export interface CpShardResult {
  O: Float32Array;
  lse: Float32Array;
  dq?: Float32Array;
  dk?: Float32Array;
  dv?: Float32Array;
}

/**
 * Sizes per rank: B, H, n tokens of width d.
 * @see the sources of {@link ringAttention}
 */
export interface RingDims {
  B: number;
  H: number;
  n: number;
  d: number;
}

const concat = (a: Float32Array, b: Float32Array) => { const out = new Float32Array(a.length + b.length); out.set(a); out.set(b, a.length); return out; };
const addInto = (dst: Float32Array, src: Float32Array, at = 0) => { for (let i = 0; i < src.length; i++) dst[at + i] += src[i]; };

/**
 * Exact attention over the whole sequence with every rank holding only its tokens.
 *
 * Forward: at step s = 0 … C−1 rank r holds the keys and values of rank (r − s) mod C (K and V
 * packed in one buffer of 2·B·H·n·d elements), computes its queries' partial result against them
 * ({@link blockAttention}, masked by global positions) and merges it into its running (O, lse)
 * ({@link mergeAttentionPartials}); between steps the blocks move one rank along the ring: C − 1 sends.
 * Backward (when every shard has dO): the blocks go round again; at each step the rank adds the block's
 * dq to its own and the block's dk, dv to a gradient buffer that travels with the block
 * ({@link blockAttentionBackward}, with the merged O and lse); after the C-th move of that buffer each
 * rank holds the gradients of its own keys and values: C − 1 sends of K, V and C of dK, dV.
 * Equals single-device attention (referenceAttention and referenceAttentionBackward on the gathered
 * sequence) up to float32 rounding; the tests require 2e-5.
 * @param ring the ring (its sendRecv is the only communication)
 * @param shards one {@link CpShard} per rank; positions together 0 … C·n − 1 once each
 * @param dims B, H, n, d per rank
 * @param o causal, docIds, scale
 * @returns one {@link CpShardResult} per rank (new arrays)
 * @throws RangeError `shards must hold one shard per rank (cpSize = 4), got 3`; `shards[1].k must have length 16 (B·H·n·d), got 12`;
 *   `dO must be given for every shard or for none`; and those of checkShards
 * @example ringAttention(createRing(2), [{q, k, v, positions: [0, 3]}, {q, k, v, positions: [1, 2]}], {B: 1, H: 1, n: 2, d: 1}, {causal: true})
 *   // per rank {O, lse}: gathered by position, equal to referenceAttention on the 4-token sequence
 * @see Liu et al. 2023, *Ring Attention with Blockwise Transformers*, §3 and Algorithm 1; zhuzilin/ring-flash-attention
 *   `ring_flash_attn/ring_flash_attn.py` and `zigzag_ring_flash_attn.py` (forward and backward loops), commit 8996282
 */
export function ringAttention(ring: Ring, shards: readonly CpShard[], dims: RingDims, o: BlockMaskOptions = {}): CpShardResult[] {
  const C = ring.cpSize;
  if (!Array.isArray(shards) || shards.length !== C) throw new RangeError(`shards must hold one shard per rank (cpSize = ${C}), got ${Array.isArray(shards) ? shards.length : String(shards)}`);
  const { B, H, n, d } = dims;
  const len = B * H * n * d;
  shards.forEach((s, r) => (["q", "k", "v", "dO"] as const).forEach((t) => {
    if ((t !== "dO" || s.dO) && s[t]!.length !== len) throw new RangeError(`shards[${r}].${t} must have length ${len} (B·H·n·d), got ${s[t]!.length}`);
  }));
  const withGrad = shards.filter((s) => s.dO).length;
  if (withGrad !== 0 && withGrad !== C) throw new RangeError("dO must be given for every shard or for none");
  checkShards(shards.map((s) => s.positions));
  const pos = shards.map((s) => s.positions);
  const blk = { B, H, nq: n, nk: n, d };
  const owner = (r: number, s: number) => (((r - s) % C) + C) % C;
  // Forward: C blocks per rank, C − 1 ring steps.
  let kv: Float32Array[] = shards.map((s) => concat(s.k, s.v));
  let acc: AttentionPartial[] = shards.map(() => ({ O: new Float32Array(len), lse: new Float32Array(B * H * n).fill(-Infinity) }));
  for (let s = 0; s < C; s++) {
    acc = acc.map((a, r) => mergeAttentionPartials(a, blockAttention(shards[r].q, kv[r].subarray(0, len), kv[r].subarray(len), blk, pos[r], pos[owner(r, s)], o)));
    if (s < C - 1) kv = ring.sendRecv(kv);
  }
  if (withGrad === 0) return acc.map((a) => ({ O: a.O, lse: a.lse }));
  // Backward: K, V go round again (C − 1 steps); their gradients travel with them (C steps).
  kv = shards.map((s) => concat(s.k, s.v));
  let dkv: Float32Array[] = shards.map(() => new Float32Array(2 * len));
  const dq = shards.map(() => new Float32Array(len));
  for (let s = 0; s < C; s++) {
    shards.forEach((sh, r) => {
      const g = blockAttentionBackward(sh.q, kv[r].subarray(0, len), kv[r].subarray(len), acc[r].O, sh.dO!, acc[r].lse, blk, pos[r], pos[owner(r, s)], o);
      addInto(dq[r], g.dQ);
      addInto(dkv[r], g.dK);
      addInto(dkv[r], g.dV, len);
    });
    if (s < C - 1) kv = ring.sendRecv(kv);
    dkv = ring.sendRecv(dkv);
  }
  return acc.map((a, r) => ({ O: a.O, lse: a.lse, dq: dq[r], dk: dkv[r].slice(0, len), dv: dkv[r].slice(len) }));
}
