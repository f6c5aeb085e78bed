import { blockAttention, blockAttentionBackward, mergeAttentionPartials, type AttentionPartial } from "../../../lib/context-parallel/index.js";
import type { ringAttention, CpShard } from "../ring-attention.js";

type F = typeof ringAttention;
interface Mistake {
  /** Merge block results by adding them (no log-sum-exp weights). */
  addOutputs?: boolean;
  /** Use the positions of rank (r + s) mod C for the block held at step s (the ring turned the other way). */
  wrongOwner?: boolean;
  /** Backward: stop after C − 1 moves of dK | dV (the gradients end one rank away from their owner). */
  dkvOneShort?: boolean;
  /** Backward: keep the forward pass's blocks instead of sending K and V around again. */
  keepBlocks?: boolean;
  /** Backward: use each block's own logsumexp instead of the merged one. */
  blockLocalLse?: boolean;
  /** Forward: read the held block's K and V from its owner's shard, sending the ring's buffers only as a decoy. */
  readShards?: boolean;
  /** Backward: the same, in the backward pass only (the forward pass uses the ring). */
  readShardsBackward?: boolean;
}

const cat = (a: Float32Array, b: Float32Array) => { const o = new Float32Array(a.length + b.length); o.set(a); o.set(b, a.length); return o; };

/** Ring attention written out again, with one mistake switched on. */
function ring(m: Mistake): F {
  return (ring, shards, { B, H, n, d }, o = {}) => {
    const C = ring.cpSize;
    if (shards.length !== C) throw new RangeError(`shards must hold one shard per rank (cpSize = ${C}), got ${shards.length}`);
    const len = B * H * n * d, blk = { B, H, nq: n, nk: n, d }, opt = { causal: o.causal, scale: o.scale };
    const owner = (r: number, s: number) => (m.wrongOwner ? (r + s) % C : (r - s + C) % C);
    const add = (x: AttentionPartial, y: AttentionPartial): AttentionPartial => ({ O: x.O.map((v, i) => v + y.O[i]), lse: x.lse.map((v, i) => Math.max(v, y.lse[i])) });
    let kv: Float32Array[] = shards.map((s) => cat(s.k, s.v));
    const seen: Float32Array[][] = shards.map(() => []);
    let acc: AttentionPartial[] = shards.map(() => ({ O: new Float32Array(len), lse: new Float32Array(B * H * n).fill(-Infinity) }));
    const blocks: AttentionPartial[][] = shards.map(() => []);
    for (let s = 0; s < C; s++) {
      acc = acc.map((a, r) => {
        seen[r].push(kv[r]);
        const held = m.readShards ? cat(shards[owner(r, s)].k, shards[owner(r, s)].v) : kv[r];
        const part = blockAttention(shards[r].q, held.subarray(0, len), held.subarray(len), blk, shards[r].positions, shards[owner(r, s)].positions, opt);
        blocks[r].push(part);
        return m.addOutputs ? add(a, part) : mergeAttentionPartials(a, part);
      });
      if (s < C - 1) kv = ring.sendRecv(kv);
    }
    if (!shards[0].dO) return acc.map((a) => ({ O: a.O, lse: a.lse }));
    kv = shards.map((s) => cat(s.k, s.v));
    let dkv: Float32Array[] = shards.map(() => new Float32Array(2 * len));
    const dq = shards.map(() => new Float32Array(len));
    for (let s = 0; s < C; s++) {
      shards.forEach((sh: CpShard, r) => {
        const held = m.readShardsBackward ? cat(shards[owner(r, s)].k, shards[owner(r, s)].v) : m.keepBlocks ? seen[r][s] : kv[r];
        const lse = m.blockLocalLse ? blocks[r][s].lse : acc[r].lse;
        const g = blockAttentionBackward(sh.q, held.subarray(0, len), held.subarray(len), acc[r].O, sh.dO!, lse, blk, sh.positions, shards[owner(r, s)].positions, opt);
        g.dQ.forEach((v, i) => (dq[r][i] += v));
        g.dK.forEach((v, i) => (dkv[r][i] += v));
        g.dV.forEach((v, i) => (dkv[r][len + i] += v));
      });
      if (s < C - 1 && !m.keepBlocks) kv = ring.sendRecv(kv);
      if (s < C - 1 || !m.dkvOneShort) dkv = ring.sendRecv(dkv);
    }
    return acc.map((a, r) => ({ O: a.O, lse: a.lse, dq: dq[r], dk: dkv[r].slice(0, len), dv: dkv[r].slice(len) }));
  };
}

export const mutants = {
  "adds the blocks' outputs instead of weighing them by the log-sum-exp rule": { impl: ring({ addOutputs: true }), caughtBy: ["the stub's example", "forward equals one device (three layouts, causal and not)", "trains lib/nn's model to the same weights as one device (C = 2, 4)"] },
  "masks each block with the positions of rank (r + s) mod C (the ring turned the other way)": { impl: ring({ wrongOwner: true }), caughtBy: ["forward equals one device (three layouts, causal and not)", "any placement of the tokens, any C and shape", "trains lib/nn's model to the same weights as one device (C = 2, 4)"] },
  "stops the dK | dV buffers one move short of their owners": { impl: ring({ dkvOneShort: true }), caughtBy: ["backward equals one device: dq, dk, dv", "ring messages: one [K | V] block per rank and step, C − 1 forward, 2C − 1 block moves backward", "trains lib/nn's model to the same weights as one device (C = 2, 4)"] },
  "keeps every block of the forward pass instead of passing K and V around again (C blocks of memory)": { impl: ring({ keepBlocks: true }), caughtBy: "ring messages: one [K | V] block per rank and step, C − 1 forward, 2C − 1 block moves backward" },
  "recomputes the backward pass with each block's own logsumexp instead of the merged one": { impl: ring({ blockLocalLse: true }), caughtBy: ["backward equals one device: dq, dk, dv", "blocks a rank cannot see (fully masked) give no NaN", "trains lib/nn's model to the same weights as one device (C = 2, 4)"] },
  "reads the other ranks' K and V from their shards, the ring only a decoy": { impl: ring({ readShards: true }), caughtBy: ["forward equals one device (three layouts, causal and not)", "any placement of the tokens, any C and shape", "blocks a rank cannot see (fully masked) give no NaN"] },
  "reads the other ranks' K and V from their shards in the backward pass, the ring only a decoy": { impl: ring({ readShardsBackward: true }), caughtBy: ["backward equals one device: dq, dk, dv", "any placement of the tokens, any C and shape", "blocks a rank cannot see (fully masked) give no NaN"] },
} satisfies Record<string, { impl: F; caughtBy: string | string[] }>;
