/**
 * One step of ring attention on the GPU: a rank's queries against the
 * key/value block it holds, on chapter 10's FlashAttention kernel (one gpu.js
 * launch) with the step's position mask, then merged into the rank's running
 * (O, lse) with the log-sum-exp rule. Imports gpu.js: load it only where a
 * kernel runs (a dynamic import on a page).
 */
import { createFlashAttentionKernel, createGpu } from "../flash-attention/flashAttentionKernel.js";
import { mergeAttentionPartials, type AttentionPartial } from "./mergeAttentionPartials.js";
import { positionMask, type BlockDims } from "./blockAttention.js";
import { sequenceShards, type CpLayout } from "./sequenceShards.js";
import { shardSequence, gatherSequence, type SequenceDims } from "./shardSequence.js";

/**
 * A compiled ring-step kernel for one block shape.
 * @see the sources of {@link createRingBlockKernel}
 */
export interface RingBlockKernel {
  /** One ring step: the merged partial of the rank's queries after this block (new arrays). */
  run(q: Float32Array, k: Float32Array, v: Float32Array, qPos: readonly number[], kPos: readonly number[], prev: AttentionPartial): AttentionPartial;
  destroy(): void;
}

/**
 * Compiles the ring step on `gpu` for a block shape: chapter 10's FlashAttention kernel, compiled once
 * with a mask argument, run at every step with that step's mask from the global positions
 * ({@link positionMask}); its (O, lse) is merged into `prev` with {@link mergeAttentionPartials}
 * (O(nq·d) on the host, against O(nq·nk·d) on the GPU).
 * Agrees with blockAttention followed by mergeAttentionPartials within float32 rounding (tests: 2e-5 for |logits| ≲ 10).
 * @param gpu a kernel context from chapter 10's createGpu (lib/kernels/gpujs; the caller destroys it)
 * @param dims B, H, nq, nk, d
 * @param o causal (in global positions), scale (default 1/√d)
 * @returns {run, destroy}
 * @throws RangeError `nq must be an integer >= 1, got 0` (likewise B, H, nk, d); from run: `q must have length 8 (B·H·Nq·d), got 7`,
 *   `qPos must have nq = 2 positions, got 3`
 * @example const kern = createRingBlockKernel(createGpu("cpu"), {B: 1, H: 1, nq: 2, nk: 2, d: 4}, {causal: true});
 *   kern.run(q, k, v, [0, 3], [1, 2], previous) // ≈ mergeAttentionPartials(previous, blockAttention(q, k, v, dims, [0, 3], [1, 2], {causal: true}))
 * @see Liu et al. 2023, *Ring Attention*, Algorithm 1 (the per-host step); lib/flash-attention/flashAttentionKernel.ts (the kernel)
 */
export function createRingBlockKernel(gpu: ReturnType<typeof createGpu>, dims: BlockDims, o: { causal?: boolean; scale?: number } = {}): RingBlockKernel {
  for (const key of ["B", "H", "nq", "nk", "d"] as const) if (!Number.isInteger(dims[key]) || dims[key] < 1) throw new RangeError(`${key} must be an integer >= 1, got ${dims[key]}`);
  const { B, H, nq, nk, d } = dims;
  const flash = createFlashAttentionKernel(gpu, { B, H, Nq: nq, Nk: nk, d }, { scale: o.scale, mask: new Uint8Array(nq * nk) });
  return {
    run(q, k, v, qPos, kPos, prev) {
      if (qPos.length !== nq) throw new RangeError(`qPos must have nq = ${nq} positions, got ${qPos.length}`);
      if (kPos.length !== nk) throw new RangeError(`kPos must have nk = ${nk} positions, got ${kPos.length}`);
      return mergeAttentionPartials(prev, flash.run(q, k, v, positionMask(qPos, kPos, o)));
    },
    destroy: () => flash.destroy(),
  };
}

/**
 * The forward ring of C ranks with every step's attention on the kernel (the blocks move on the host, as
 * the ring would move them): gathered O and lse of a (B, H, N, d) sequence, and the gpu.js mode it ran on.
 * @param q (B, H, N, d) queries
 * @param k (B, H, N, d) keys
 * @param v (B, H, N, d) values
 * @param dims B, H, N, d
 * @param o cpSize, layout, causal, scale, mode ("webgl2", "cpu", …; default gpu.js's choice)
 * @returns {O, lse, mode: the backend it ran on}
 * @throws RangeError from sequenceShards and createRingBlockKernel
 * @example runRingAttentionKernel(q, k, v, {B: 1, H: 2, N: 16, d: 8}, {cpSize: 4, layout: "zigzag", causal: true}).O // ≈ referenceAttention(…, {causal: "top-left"}).O
 * @see {@link createRingBlockKernel}
 */
export function runRingAttentionKernel(q: Float32Array, k: Float32Array, v: Float32Array, dims: SequenceDims, o: { cpSize: number; layout: CpLayout; causal?: boolean; scale?: number; mode?: string }): { O: Float32Array; lse: Float32Array; mode: string } {
  const shards = sequenceShards(dims.N, o.cpSize, o.layout);
  const C = o.cpSize, n = dims.N / C, part = (x: Float32Array, r: number) => shardSequence(x, dims, shards[r]);
  const gpu = createGpu(o.mode);
  try {
    const kern = createRingBlockKernel(gpu, { B: dims.B, H: dims.H, nq: n, nk: n, d: dims.d }, o);
    try {
      const acc = shards.map((_, r) => {
        let partial: AttentionPartial = { O: new Float32Array(dims.B * dims.H * n * dims.d), lse: new Float32Array(dims.B * dims.H * n).fill(-Infinity) };
        for (let s = 0; s < C; s++) {
          const owner = (r - s + C) % C; // the block rank r holds at step s
          partial = kern.run(part(q, r), part(k, owner), part(v, owner), shards[r], shards[owner], partial);
        }
        return partial;
      });
      return { O: gatherSequence(acc.map((a) => a.O), dims, shards), lse: gatherSequence(acc.map((a) => a.lse), { ...dims, d: 1 }, shards), mode: gpu.backend };
    } finally {
      kern.destroy();
    }
  } finally {
    gpu.destroy();
  }
}
