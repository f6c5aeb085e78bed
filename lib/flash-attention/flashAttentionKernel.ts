/**
 * FlashAttention's forward pass as one gpu.js kernel: each thread owns one
 * output element O[b, h, i, x] (or the row's logsumexp) and streams over the
 * keys with the online softmax; no N×N matrix exists anywhere, in slow memory
 * or in the kernel.
 */
import { createKernelContext, type GpuMode, type KernelContext } from "../kernels/gpujs/createKernelContext.js";
import { padColumns } from "../kernels/gpujs/vec4.js";
import { kernelConstants, restoreMinusInfinity, type KernelConstants } from "./kernelConstants.js";
import type { AttentionOptions, AttentionShape } from "./shape.js";

/**
 * The kernel context (lib/kernels/gpujs) for this chapter's kernels, so that pages need not import gpu.js themselves.
 * @param mode gpu.js mode ("webgl2", "cpu", …); default: the best available
 * @returns the context; the caller destroys it with destroy()
 * @example const gpu = createGpu("cpu"); gpu.backend // "cpu"; then gpu.destroy()
 * @see createKernelContext
 */
export function createGpu(mode?: string): KernelContext {
  return createKernelContext((mode ?? "gpu") as GpuMode);
}

type Ctx = { thread: { x: number }; constants: KernelConstants & { groups: number; d4: number } };

/**
 * The kernel body: thread t = row·G + g with row = bh·Nq + i and G = d4 + 1 (d4 = ⌈d/4⌉ texels
 * per row) returns the output columns 4g … 4g+3 of that row, or for g = d4 the row's logsumexp
 * in its first lane. Keys arrive one at a time (gpu.js threads have no shared memory to hold a
 * B_c×d tile): s = scale·qᵢ·kⱼ, read four floats per texel; if s > m then ℓ and the accumulators
 * are rescaled by e^{m−s} and m = s; then ℓ += e^{s−m}, acc += e^{s−m}·vⱼ.
 * Fully masked rows give 0 and lse = MASKED_LOGIT.
 */
function flashKernelBody(this: Ctx, q: number[][], k: number[][], v: number[][], mask: number[]): number[] {
  const d4 = this.constants.d4;
  const Nq = this.constants.Nq;
  const Nk = this.constants.Nk;
  const G = this.constants.groups;
  const row = Math.floor((this.thread.x + 0.5) / G);
  const g = this.thread.x - row * G;
  const bh = Math.floor((row + 0.5) / Nq);
  const i = row - bh * Nq;
  let m = this.constants.masked;
  let l = 0.0;
  let a0 = 0.0;
  let a1 = 0.0;
  let a2 = 0.0;
  let a3 = 0.0;
  for (let j = 0; j < this.constants.Nk; j++) {
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
      const kv = (bh * Nk + j) * d4;
      let s = 0.0;
      for (let x = 0; x < this.constants.d4; x++) {
        const qa = q[row * d4 + x];
        const ka = k[kv + x];
        s += qa[0] * ka[0] + qa[1] * ka[1] + qa[2] * ka[2] + qa[3] * ka[3];
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
      const vv = v[kv + Math.min(g, d4 - 1)];
      a0 += p * vv[0];
      a1 += p * vv[1];
      a2 += p * vv[2];
      a3 += p * vv[3];
    }
  }
  let lse = this.constants.masked;
  let inv = 0.0;
  if (l > 0.0) {
    lse = m + Math.log(l);
    inv = 1.0 / l;
  }
  if (g == d4) {
    return [lse, 0.0, 0.0, 0.0];
  }
  return [a0 * inv, a1 * inv, a2 * inv, a3 * inv];
}

/**
 * A compiled FlashAttention kernel for one shape and option set.
 * @see the sources of {@link createFlashAttentionKernel}: Dao et al. 2022, FlashAttention §3.1; lib/kernels/gpujs
 */
export interface FlashAttentionKernel {
  /**
   * Runs on Q, K, V of the compiled shape: O (B,H,Nq,d) and lse (B,H,Nq), −Infinity for fully masked rows.
   * `mask` (Nq·Nk, 1 = keep) replaces the compiled mask for this run; the kernel must have been compiled
   * with one (`o.mask`), since whether a mask is read is fixed at compile time (context parallelism
   * passes a new mask at every ring step).
   */
  run(q: Float32Array, k: Float32Array, v: Float32Array, mask?: Uint8Array): { O: Float32Array; lse: Float32Array };
  /** Bytes of everything the kernel writes: O and lse packed in B·H·Nq·(⌈d/4⌉ + 1) texels of 4 float32. No intermediates. */
  outputBytes: number;
  /** Nothing to free: the context caches the compiled kernel by shape and frees it with its own destroy(). */
  destroy(): void;
}

/**
 * Compiles the FlashAttention forward kernel on `gpu` for this shape and options.
 *
 * One launch of B·H·Nq·(⌈d/4⌉ + 1) threads returning four floats each (the course's
 * kernel plumbing, lib/kernels/gpujs: Q, K, V read four floats per texel, d padded to
 * a multiple of 4), output 1-D (a near-square texture of that many texels, not N×N).
 * Each thread does Nk·d multiply-adds for its four columns: about d/4 times the
 * arithmetic of a real FlashAttention kernel, whose threads share a tile's scores
 * through on-chip memory that gpu.js does not expose (lib/kernels/webgpu has it).
 * Agrees with referenceAttention within float32 rounding (tests: 2e-5 + 2e-5·|O| for |logits| ≲ 10).
 * @param gpu a kernel context from {@link createGpu} (the caller destroys it)
 * @param shape B, H, Nq, Nk, d
 * @param o causal, scale, mask (fixed at compile time)
 * @returns {run, outputBytes, destroy}
 * @throws RangeError as resolveQKV; from run, `mask must have length 6 (Nq·Nk), got 5` and
 *   `mask was given to run, but the kernel was compiled without a mask (pass o.mask to createFlashAttentionKernel)`
 * @example const fk = createFlashAttentionKernel(createGpu(), shape); const {O, lse} = fk.run(q, k, v); fk.destroy();
 *   // O: (B·H·Nq·d) Float32Array, lse: (B·H·Nq), both within the tolerance above of referenceAttention(q, k, v, shape)
 * @see Dao et al. 2022, FlashAttention §3.1; Milakov & Gimelshein 2018, Algorithm 3
 */
export function createFlashAttentionKernel(gpu: KernelContext, shape: AttentionShape, o: AttentionOptions = {}): FlashAttentionKernel {
  const { B, H, Nq, Nk, d } = shape;
  const dummy = new Float32Array(B * H * Nq * d);
  const { constants, mask } = kernelConstants(dummy, new Float32Array(B * H * Nk * d), new Float32Array(B * H * Nk * d), shape, o);
  const rows = B * H * Nq;
  const d4 = Math.ceil(d / 4);
  const groups = d4 + 1;
  const kernel = gpu.kernel(`flash-attention ${JSON.stringify(constants)}`, () => ({
    body: flashKernelBody as never,
    argumentTypes: { q: "Array1D(4)", k: "Array1D(4)", v: "Array1D(4)", mask: "Array" },
    constants: { ...constants, groups, d4 },
    output: [rows * groups],
  }));
  return {
    run(q, k, v, runMask) {
      kernelConstants(q, k, v, shape, runMask ? { ...o, mask: runMask } : o);
      if (runMask && !o.mask) throw new RangeError("mask was given to run, but the kernel was compiled without a mask (pass o.mask to createFlashAttentionKernel)");
      const m = runMask ? Float32Array.from(runMask) : mask;
      const out = kernel.run([padColumns(q, rows, d, 4 * d4), padColumns(k, B * H * Nk, d, 4 * d4), padColumns(v, B * H * Nk, d, 4 * d4), m], rows * groups * 4);
      const O = new Float32Array(rows * d);
      const lse = new Float32Array(rows);
      for (let r = 0; r < rows; r++) {
        O.set(out.subarray(r * groups * 4, r * groups * 4 + d), r * d); // (B, H, Nq, d)
        lse[r] = out[(r * groups + d4) * 4];
      }
      return { O, lse: restoreMinusInfinity(lse) };
    },
    outputBytes: rows * groups * 4 * 4,
    destroy: () => undefined,
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
    return { ...createFlashAttentionKernel(gpu, shape, o).run(q, k, v), mode: gpu.backend };
  } finally {
    gpu.destroy();
  }
}
