/**
 * FlashAttention's forward pass as one gpu.js kernel: each thread owns one
 * output element O[b, h, i, x] (or the row's logsumexp) and streams over the
 * keys with the online softmax; no N×N matrix exists anywhere, in slow memory
 * or in the kernel.
 */
import gpujs from "gpu.js";
import { kernelConstants, restoreMinusInfinity, type KernelConstants } from "./kernelConstants.js";
import type { AttentionOptions, AttentionShape } from "./shape.js";

const { GPU } = gpujs;

/**
 * A gpu.js GPU for this chapter's kernels, so that pages need not import gpu.js themselves.
 * @param mode gpu.js mode ("webgl2", "webasm", "cpu", …); default: the best available
 * @returns the GPU; the caller destroys it with gpu.destroy()
 * @example const gpu = createGpu("cpu"); gpu.mode // "cpu"; then gpu.destroy()
 * @see https://github.com/gpujs/gpu.js (new GPU({mode}))
 */
export function createGpu(mode?: string): InstanceType<typeof GPU> {
  return mode ? new GPU({ mode: mode as never }) : new GPU();
}

type Ctx = { thread: { x: number }; constants: KernelConstants & { groups: number } };

/**
 * The kernel body: thread t = row·G + g with row = bh·Nq + i and G = ⌈(d+1)/4⌉
 * returns the four output columns c = 4g … 4g+3 of that row, where column
 * c < d is O[row, c] and column d is lse[row] (columns beyond d are 0).
 * Keys arrive one at a time (gpu.js threads have no shared memory to hold a
 * B_c×d tile): s = scale·qᵢ·kⱼ; if s > m then ℓ and the accumulators are
 * rescaled by e^{m−s} and m = s; then ℓ += e^{s−m}, acc += e^{s−m}·vⱼ.
 * Fully masked rows give 0 and lse = MASKED_LOGIT.
 */
function flashKernelBody(this: Ctx, q: number[], k: number[], v: number[], mask: number[]): number[] {
  const d = this.constants.d;
  const Nq = this.constants.Nq;
  const Nk = this.constants.Nk;
  const G = this.constants.groups;
  const row = Math.floor((this.thread.x + 0.5) / G);
  const c0 = (this.thread.x - row * G) * 4;
  const bh = Math.floor((row + 0.5) / Nq);
  const i = row - bh * Nq;
  let m = this.constants.masked;
  let l = 0.0;
  let a0 = 0.0;
  let a1 = 0.0;
  let a2 = 0.0;
  let a3 = 0.0;
  for (let j = 0; j < Nk; j++) {
    let keep = 1.0;
    if (this.constants.causal > 0.5 && j > i + this.constants.causalOffset) {
      keep = 0.0;
    }
    if (this.constants.hasMask > 0.5) {
      if (mask[i * Nk + j] < 0.5) {
        keep = 0.0;
      }
    }
    if (keep > 0.5) {
      const kv = (bh * Nk + j) * d;
      let s = 0.0;
      for (let x = 0; x < d; x++) {
        s += q[row * d + x] * k[kv + x];
      }
      s = s * this.constants.scale;
      if (s > m) {
        const alpha = Math.exp(m - s);
        l = l * alpha;
        a0 = a0 * alpha;
        a1 = a1 * alpha;
        a2 = a2 * alpha;
        a3 = a3 * alpha;
        m = s;
      }
      const p = Math.exp(s - m);
      l += p;
      if (c0 < d) {
        a0 += p * v[kv + c0];
      }
      if (c0 + 1 < d) {
        a1 += p * v[kv + c0 + 1];
      }
      if (c0 + 2 < d) {
        a2 += p * v[kv + c0 + 2];
      }
      if (c0 + 3 < d) {
        a3 += p * v[kv + c0 + 3];
      }
    }
  }
  let lse = this.constants.masked;
  let inv = 0.0;
  if (l > 0.0) {
    lse = m + Math.log(l);
    inv = 1.0 / l;
  }
  let o0 = a0 * inv;
  let o1 = a1 * inv;
  let o2 = a2 * inv;
  let o3 = a3 * inv;
  if (c0 == d) {
    o0 = lse;
  }
  if (c0 + 1 == d) {
    o1 = lse;
  }
  if (c0 + 2 == d) {
    o2 = lse;
  }
  if (c0 + 3 == d) {
    o3 = lse;
  }
  return [o0, o1, o2, o3];
}

/**
 * A compiled FlashAttention kernel for one shape and option set.
 * @see the sources of {@link createGpu}: https://github.com/gpujs/gpu.js (new GPU({mode}))
 */
export interface FlashAttentionKernel {
  /**
   * Runs on Q, K, V of the compiled shape: O (B,H,Nq,d) and lse (B,H,Nq), −Infinity for fully masked rows.
   * `mask` (Nq·Nk, 1 = keep) replaces the compiled mask for this run; the kernel must have been compiled
   * with one (`o.mask`), since whether a mask is read is fixed at compile time (context parallelism
   * passes a new mask at every ring step).
   */
  run(q: Float32Array, k: Float32Array, v: Float32Array, mask?: Uint8Array): { O: Float32Array; lse: Float32Array };
  /** Bytes of everything the kernel writes: O and lse packed in B·H·Nq·⌈(d+1)/4⌉ texels of 4 float32. No intermediates. */
  outputBytes: number;
  /** Frees the kernel (not the GPU, which belongs to the caller). */
  destroy(): void;
}

/**
 * Compiles the FlashAttention forward kernel on `gpu` for this shape and options.
 *
 * One launch of B·H·Nq·⌈(d+1)/4⌉ threads returning four floats each, output
 * 1-D (a near-square texture of that many texels, not N×N). Each thread does
 * Nk·d multiply-adds for its four columns: about d/4 times the arithmetic of a
 * real FlashAttention kernel, whose threads share a tile's scores through
 * on-chip memory that gpu.js does not expose.
 * Agrees with referenceAttention within float32 rounding (tests: 2e-5 + 2e-5·|O| for |logits| ≲ 10).
 * @param gpu a gpu.js GPU (the caller destroys it)
 * @param shape B, H, Nq, Nk, d
 * @param o causal, scale, mask (fixed at compile time)
 * @returns {run, outputBytes, destroy}
 * @throws RangeError as resolveQKV; from run, `mask must have length 6 (Nq·Nk), got 5` and
 *   `mask was given to run, but the kernel was compiled without a mask (pass o.mask to createFlashAttentionKernel)`
 * @example const fk = createFlashAttentionKernel(new GPU(), shape); const {O, lse} = fk.run(q, k, v); fk.destroy();
 *   // O: (B·H·Nq·d) Float32Array, lse: (B·H·Nq), both within the tolerance above of referenceAttention(q, k, v, shape)
 * @see Dao et al. 2022, FlashAttention §3.1; Milakov & Gimelshein 2018, Algorithm 3
 */
export function createFlashAttentionKernel(gpu: InstanceType<typeof GPU>, shape: AttentionShape, o: AttentionOptions = {}): FlashAttentionKernel {
  const { B, H, Nq, Nk, d } = shape;
  const dummy = new Float32Array(B * H * Nq * d);
  const { constants, mask } = kernelConstants(dummy, new Float32Array(B * H * Nk * d), new Float32Array(B * H * Nk * d), shape, o);
  const rows = B * H * Nq;
  const groups = Math.ceil((d + 1) / 4);
  // returnType is a gpu.js setting missing from its .d.ts
  const settings = { output: [rows * groups], constants: { ...constants, groups }, precision: "single", tactic: "precision", returnType: "Array(4)", loopMaxIterations: Math.max(Nk, d) + 1 };
  const kernel = gpu.createKernel(flashKernelBody as never, settings as never);
  return {
    run(q, k, v, runMask) {
      kernelConstants(q, k, v, shape, runMask ? { ...o, mask: runMask } : o);
      if (runMask && !o.mask) throw new RangeError("mask was given to run, but the kernel was compiled without a mask (pass o.mask to createFlashAttentionKernel)");
      const out = kernel(q as never, k as never, v as never, (runMask ? Float32Array.from(runMask) : mask) as never) as unknown as Float32Array[];
      const O = new Float32Array(rows * d);
      const lse = new Float32Array(rows);
      for (let r = 0; r < rows; r++) {
        for (let x = 0; x < d; x++) O[r * d + x] = out[r * groups + (x >> 2)][x & 3]; // (B, H, Nq, d)
        lse[r] = out[r * groups + (d >> 2)][d & 3];
      }
      return { O, lse: restoreMinusInfinity(lse) };
    },
    outputBytes: rows * groups * 4 * 4,
    destroy: () => kernel.destroy(),
  };
}

/**
 * One-shot FlashAttention on a fresh GPU (mode: gpu.js default, or e.g. "webasm", "cpu", "webgl2"), destroyed afterwards.
 * @param q queries (B, H, Nq, d)
 * @param k keys (B, H, Nk, d)
 * @param v values (B, H, Nk, d)
 * @param shape B, H, Nq, Nk, d
 * @param o causal, scale, mask and the gpu.js mode
 * @returns {O, lse, mode}
 * @throws RangeError as resolveQKV
 * @example runFlashAttentionKernel(q, k, v, shape).O // ≈ referenceAttention(q, k, v, shape).O
 * @see createFlashAttentionKernel
 */
export function runFlashAttentionKernel(q: Float32Array, k: Float32Array, v: Float32Array, shape: AttentionShape, o: AttentionOptions & { mode?: string } = {}): { O: Float32Array; lse: Float32Array; mode: string } {
  kernelConstants(q, k, v, shape, o);
  const gpu = createGpu(o.mode);
  try {
    const fk = createFlashAttentionKernel(gpu, shape, o);
    try {
      return { ...fk.run(q, k, v), mode: gpu.mode };
    } finally {
      fk.destroy();
    }
  } finally {
    gpu.destroy();
  }
}
