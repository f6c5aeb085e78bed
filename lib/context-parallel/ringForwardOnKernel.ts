/**
 * The forward ring of C ranks with every step on an attention kernel that knows
 * only causal or no mask (the WebGPU kernel of lib/kernels), the blocks moving
 * on the host as the ring would move them.
 */
import { ringStepByRuns, type CausalKernel } from "./ringStepByRuns.js";
import type { AttentionPartial } from "./mergeAttentionPartials.js";
import { sequenceShards, type CpLayout } from "./sequenceShards.js";
import { shardSequence, gatherSequence, type SequenceDims } from "./shardSequence.js";

/**
 * Ring attention's forward pass through `kernel`: O and lse of a (B, H, N, d) sequence gathered in sequence order.
 * @param kernel the attention kernel (e.g. `(q, k, v, shape, o) => webgpu.flash(q, k, v, shape, o)`)
 * @param q (B, H, N, d) queries
 * @param k (B, H, N, d) keys
 * @param v (B, H, N, d) values
 * @param dims B, H, N, d
 * @param o cpSize, layout, causal, scale
 * @returns {O, lse}
 * @throws RangeError from sequenceShards and ringStepByRuns
 * @example await ringForwardOnKernel(cpuKernel, q, k, v, {B: 1, H: 2, N: 16, d: 8}, {cpSize: 4, layout: "zigzag", causal: true}) // ≈ referenceAttention(…, {causal: "top-left"})
 * @see Liu et al. 2023, *Ring Attention*, Algorithm 1; {@link ringStepByRuns}
 */
export async function ringForwardOnKernel(kernel: CausalKernel, q: Float32Array, k: Float32Array, v: Float32Array, dims: SequenceDims, o: { cpSize: number; layout: CpLayout; causal?: boolean; scale?: number }): Promise<AttentionPartial> {
  const shards = sequenceShards(dims.N, o.cpSize, o.layout);
  const C = o.cpSize, n = dims.N / C, part = (x: Float32Array, r: number) => shardSequence(x, dims, shards[r]);
  const acc: AttentionPartial[] = [];
  for (let r = 0; r < C; r++) {
    let partial: AttentionPartial = { O: new Float32Array(dims.B * dims.H * n * dims.d), lse: new Float32Array(dims.B * dims.H * n).fill(-Infinity) };
    for (let s = 0; s < C; s++) {
      const owner = (r - s + C) % C; // the block rank r holds at step s
      partial = await ringStepByRuns(kernel, part(q, r), part(k, owner), part(v, owner), { B: dims.B, H: dims.H, nq: n, nk: n, d: dims.d }, shards[r], shards[owner], partial, o);
    }
    acc.push(partial);
  }
  return { O: gatherSequence(acc.map((a) => a.O), dims, shards), lse: gatherSequence(acc.map((a) => a.lse), { ...dims, d: 1 }, shards) };
}
