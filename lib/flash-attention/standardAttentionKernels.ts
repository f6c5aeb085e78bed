/**
 * Standard attention as gpu.js kernels that materialise the N×N matrices, as
 * a framework without fusion does: S = scale·QKᵀ, then P = softmax(S) (one
 * kernel for the row logsumexp, one for P = exp(S − lse)), then O = PV.
 * S and P stay on the device between launches (pipeline textures on WebGL2).
 */
import gpujs from "gpu.js";
import { kernelConstants, restoreMinusInfinity, type KernelConstants } from "./kernelConstants.js";
import type { AttentionOptions, AttentionShape } from "./shape.js";

const { GPU } = gpujs;

type Ctx = { thread: { x: number; y: number }; constants: KernelConstants };

/** S[row, j] = scale·q_row·k_j, or MASKED_LOGIT; output (Nk, BH·Nq) as [x = j, y = row]. */
function scoresBody(this: Ctx, q: number[], k: number[], mask: number[]): number {
  const d = this.constants.d;
  const Nq = this.constants.Nq;
  const Nk = this.constants.Nk;
  const row = this.thread.y;
  const j = this.thread.x;
  const bh = Math.floor((row + 0.5) / Nq);
  const i = row - bh * Nq;
  if (this.constants.causal > 0.5 && j > i + this.constants.causalOffset) {
    return this.constants.masked;
  }
  if (this.constants.hasMask > 0.5) {
    if (mask[i * Nk + j] < 0.5) {
      return this.constants.masked;
    }
  }
  let s = 0.0;
  for (let x = 0; x < d; x++) {
    s += q[row * d + x] * k[(bh * Nk + j) * d + x];
  }
  return s * this.constants.scale;
}

/** lse[row] = m + log Σⱼ exp(S[row, j] − m) over kept keys; MASKED_LOGIT for a fully masked row. */
function rowLogsumexpBody(this: Ctx, S: number[][]): number {
  const Nk = this.constants.Nk;
  const row = this.thread.x;
  let m = this.constants.masked;
  for (let j = 0; j < Nk; j++) {
    m = Math.max(m, S[row][j]);
  }
  if (m < this.constants.masked * 0.5) {
    return this.constants.masked;
  }
  let l = 0.0;
  for (let j = 0; j < Nk; j++) {
    if (S[row][j] > this.constants.masked * 0.5) {
      l += Math.exp(S[row][j] - m);
    }
  }
  return m + Math.log(l);
}

/** P[row, j] = exp(S[row, j] − lse[row]), 0 where masked. */
function probabilitiesBody(this: Ctx, S: number[][], lse: number[]): number {
  const s = S[this.thread.y][this.thread.x];
  if (s < this.constants.masked * 0.5) {
    return 0.0;
  }
  return Math.exp(s - lse[this.thread.y]);
}

/** O[row, x] = Σⱼ P[row, j]·V[b, h, j, x]; output (d, BH·Nq). */
function outputBody(this: Ctx, P: number[][], v: number[]): number {
  const d = this.constants.d;
  const Nk = this.constants.Nk;
  const row = this.thread.y;
  const bh = Math.floor((row + 0.5) / this.constants.Nq);
  let acc = 0.0;
  for (let j = 0; j < Nk; j++) {
    acc += P[row][j] * v[(bh * Nk + j) * d + this.thread.x];
  }
  return acc;
}

/**
 * Compiled standard-attention kernels for one shape and option set.
 * @see the sources of {@link createStandardAttentionKernels}: Dao et al. 2022, FlashAttention, Algorithm 0
 */
export interface StandardAttentionKernels {
  /** O (B,H,Nq,d) and lse (B,H,Nq), −Infinity for fully masked rows. */
  run(q: Float32Array, k: Float32Array, v: Float32Array): { O: Float32Array; lse: Float32Array };
  /** Bytes of the intermediates S and P (B·H·Nq·Nk float32 each) and lse (B·H·Nq). */
  intermediateBytes: number;
  destroy(): void;
}

/**
 * Compiles the four launches of standard attention on `gpu`.
 *
 * S and P are (Nk, B·H·Nq) textures: their width is Nk and height B·H·Nq, so
 * the launch fails once either exceeds the device's MAX_TEXTURE_SIZE (gpu.js:
 * "Texture size … is larger than supported size"). Agrees with referenceAttention
 * within float32 rounding.
 * @param gpu a gpu.js GPU (the caller destroys it)
 * @param shape B, H, Nq, Nk, d
 * @param o causal, scale, mask (fixed at compile time)
 * @returns {run, intermediateBytes, destroy}
 * @throws RangeError as resolveQKV; Error from gpu.js when a texture exceeds the limit
 * @example const sk = createStandardAttentionKernels(new GPU(), shape); sk.run(q, k, v).O; sk.destroy();
 *   // a (B·H·Nq·d) Float32Array equal to referenceAttention(q, k, v, shape).O within float32 rounding
 * @see Dao et al. 2022, FlashAttention, Algorithm 0
 */
export function createStandardAttentionKernels(gpu: InstanceType<typeof GPU>, shape: AttentionShape, o: AttentionOptions = {}): StandardAttentionKernels {
  const { B, H, Nq, Nk, d } = shape;
  const rows = B * H * Nq;
  const { constants, mask } = kernelConstants(new Float32Array(rows * d), new Float32Array(B * H * Nk * d), new Float32Array(B * H * Nk * d), shape, o);
  const common = { constants, precision: "single" as const, tactic: "precision" as const, loopMaxIterations: Math.max(Nk, d) + 1 };
  const scores = gpu.createKernel(scoresBody as never, { ...common, output: [Nk, rows], pipeline: true });
  const rowLse = gpu.createKernel(rowLogsumexpBody as never, { ...common, output: [rows], pipeline: true });
  const probs = gpu.createKernel(probabilitiesBody as never, { ...common, output: [Nk, rows], pipeline: true });
  const out = gpu.createKernel(outputBody as never, { ...common, output: [d, rows] });
  const readLse = gpu.createKernel(function (this: Ctx, lse: number[]) { return lse[this.thread.x]; } as never, { ...common, output: [rows] });
  return {
    run(q, k, v) {
      kernelConstants(q, k, v, shape, o);
      const S = scores(q as never, k as never, mask as never);
      const lseTex = rowLse(S as never);
      const P = probs(S as never, lseTex as never);
      const Orows = out(P as never, v as never) as unknown as Float32Array[];
      const lse = Float32Array.from(readLse(lseTex as never) as unknown as Float32Array);
      // S, lse and P are the kernels' own output textures, reused by the next run and freed by destroy().
      const O = new Float32Array(rows * d);
      Orows.forEach((r, i) => O.set(r, i * d)); // (B, H, Nq, d)
      return { O, lse: restoreMinusInfinity(lse) };
    },
    intermediateBytes: (2 * rows * Nk + rows) * 4,
    destroy() { for (const kk of [scores, rowLse, probs, out, readLse]) kk.destroy(); },
  };
}

/**
 * One-shot standard attention on a fresh GPU (gpu.js default mode or `mode`), destroyed afterwards.
 * @param q queries (B, H, Nq, d)
 * @param k keys (B, H, Nk, d)
 * @param v values (B, H, Nk, d)
 * @param shape B, H, Nq, Nk, d
 * @param o causal, scale, mask and the gpu.js mode
 * @returns {O, lse, mode}
 * @throws RangeError as resolveQKV
 * @example runStandardAttentionKernels(q, k, v, shape).O // ≈ referenceAttention(q, k, v, shape).O
 * @see createStandardAttentionKernels
 */
export function runStandardAttentionKernels(q: Float32Array, k: Float32Array, v: Float32Array, shape: AttentionShape, o: AttentionOptions & { mode?: string } = {}): { O: Float32Array; lse: Float32Array; mode: string } {
  kernelConstants(q, k, v, shape, o);
  const gpu = o.mode ? new GPU({ mode: o.mode as never }) : new GPU();
  try {
    const sk = createStandardAttentionKernels(gpu, shape, o);
    try {
      return { ...sk.run(q, k, v), mode: gpu.mode };
    } finally {
      sk.destroy();
    }
  } finally {
    gpu.destroy();
  }
}
