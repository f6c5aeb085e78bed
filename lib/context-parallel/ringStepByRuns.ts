/**
 * One ring step for attention kernels that know only "no mask" and "causal":
 * the block is cut into pairs of runs of consecutive positions (a query run
 * against a key run), each of which is fully visible, fully masked, or a causal
 * triangle; each visible pair is one kernel call, and the pieces are merged
 * with the log-sum-exp rule. This is how ring-flash-attention's zig-zag ring
 * calls FlashAttention with causal = true or false on halves of a block, and
 * how the WebGPU kernel of lib/kernels runs the ring.
 */
import { mergeAttentionPartials, type AttentionPartial } from "./mergeAttentionPartials.js";
import type { BlockDims } from "./blockAttention.js";

/**
 * An attention kernel on (B, H, Nq, d) queries and (B, H, Nk, d) keys and values, with or without a
 * top-left causal mask (key j kept for query i when j ≤ i), returning O and the logsumexp.
 * @see the sources of {@link ringStepByRuns}
 */
export type CausalKernel = (q: Float32Array, k: Float32Array, v: Float32Array, shape: { B: number; H: number; Nq: number; Nk: number; d: number }, o: { causal?: "top-left"; scale?: number }) => Promise<AttentionPartial>;

/** Maximal runs [start, end) of indices whose positions go up by one. */
function runsOf(pos: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (let i = 0; i < pos.length; i++) {
    if (i > 0 && pos[i] === pos[i - 1] + 1) runs[runs.length - 1][1] = i + 1;
    else runs.push([i, i + 1]);
  }
  return runs;
}

/** Rows [a, b) of every (batch, head) of a (B, H, n, d) tensor: (B, H, b − a, d). */
function rows(x: Float32Array, BH: number, n: number, d: number, a: number, b: number): Float32Array {
  const out = new Float32Array(BH * (b - a) * d);
  for (let bh = 0; bh < BH; bh++) out.set(x.subarray((bh * n + a) * d, (bh * n + b) * d), bh * (b - a) * d);
  return out;
}

/**
 * The rank's queries against one block, merged into `prev`, through a kernel that knows only causal or no mask.
 *
 * Query run [qa, qb) against key run [ka, kb) (positions consecutive in each): with a causal mask, kept
 * entirely when the last key comes before the first query, skipped when the first key comes after the
 * last query, a top-left causal triangle when both runs cover the same positions; any other overlap is
 * an error (the three layouts never make one). Without a mask every pair is kept. Each kept pair is one
 * kernel call; the results are merged with {@link mergeAttentionPartials}.
 * @param kernel the attention kernel (e.g. WebGPU's flash, or referenceAttention for tests)
 * @param q (B, H, nq, d) the rank's queries
 * @param k (B, H, nk, d) the block's keys
 * @param v (B, H, nk, d) the block's values
 * @param dims B, H, nq, nk, d
 * @param qPos global positions of the queries (ascending within each run)
 * @param kPos global positions of the keys
 * @param prev the rank's running partial (B·H·nq rows)
 * @param o causal, scale
 * @returns the merged partial (new arrays)
 * @throws RangeError `query positions 2…5 and key positions 4…7 overlap without being the same run: not a causal triangle`
 * @example await ringStepByRuns(cpuKernel, q, k, v, {B: 1, H: 1, nq: 4, nk: 4, d: 2}, [0, 1, 6, 7], [2, 3, 4, 5], prev, {causal: true})
 *   // the zig-zag block of rank 1 at rank 0: run 6…7 sees keys 2…5 entirely, run 0…1 sees none
 * @see zhuzilin/ring-flash-attention `ring_flash_attn/zigzag_ring_flash_attn.py` (causal on the diagonal block, halves otherwise), commit 8996282
 */
export async function ringStepByRuns(kernel: CausalKernel, q: Float32Array, k: Float32Array, v: Float32Array, dims: BlockDims, qPos: readonly number[], kPos: readonly number[], prev: AttentionPartial, o: { causal?: boolean; scale?: number } = {}): Promise<AttentionPartial> {
  const { B, H, nq, nk, d } = dims, BH = B * H;
  if (qPos.length !== nq || kPos.length !== nk) throw new RangeError(`qPos and kPos must have nq = ${nq} and nk = ${nk} positions, got ${qPos.length} and ${kPos.length}`);
  const O = Float32Array.from(prev.O), lse = Float32Array.from(prev.lse);
  for (const [qa, qb] of runsOf(qPos)) {
    let part: AttentionPartial = { O: new Float32Array(BH * (qb - qa) * d), lse: new Float32Array(BH * (qb - qa)).fill(-Infinity) };
    for (const [ka, kb] of runsOf(kPos)) {
      const q0 = qPos[qa], q1 = qPos[qb - 1], k0 = kPos[ka], k1 = kPos[kb - 1];
      let causal: "top-left" | undefined;
      if (o.causal && k0 > q1) continue; // every key after every query: nothing kept
      if (o.causal && k1 > q0) {
        if (k0 !== q0 || k1 !== q1) throw new RangeError(`query positions ${q0}…${q1} and key positions ${k0}…${k1} overlap without being the same run: not a causal triangle`);
        causal = "top-left";
      }
      const r = await kernel(rows(q, BH, nq, d, qa, qb), rows(k, BH, nk, d, ka, kb), rows(v, BH, nk, d, ka, kb), { B, H, Nq: qb - qa, Nk: kb - ka, d }, { causal, scale: o.scale });
      part = mergeAttentionPartials(part, r);
    }
    // merge the run's partial into rows [qa, qb) of the running result
    const cur = { O: rows(O, BH, nq, d, qa, qb), lse: rows(lse, BH, nq, 1, qa, qb) };
    const m = mergeAttentionPartials(cur, part);
    for (let bh = 0; bh < BH; bh++) {
      O.set(m.O.subarray(bh * (qb - qa) * d, (bh + 1) * (qb - qa) * d), (bh * nq + qa) * d);
      lse.set(m.lse.subarray(bh * (qb - qa), (bh + 1) * (qb - qa)), bh * nq + qa);
    }
  }
  return { O, lse };
}
