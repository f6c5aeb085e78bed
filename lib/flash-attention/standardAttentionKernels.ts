/**
 * Standard attention as gpu.js kernels that materialise the N×N matrices, as
 * a framework without fusion does: S = scale·QKᵀ, then P = softmax(S) (one
 * kernel for the row logsumexp, one for P = exp(S − lse)), then O = PV.
 * S and P stay on the device between launches (pipeline textures on WebGL2).
 * All through the course's kernel plumbing, lib/kernels/gpujs.
 */
import type { KernelContext } from "../kernels/gpujs/createKernelContext.js";
import { flattenResult, padColumns } from "../kernels/gpujs/vec4.js";
import { createGpu } from "./flashAttentionKernel.js";
import { kernelConstants, restoreMinusInfinity, type KernelConstants } from "./kernelConstants.js";
import type { AttentionOptions, AttentionShape } from "./shape.js";

type Ctx = { thread: { x: number; y: number }; constants: KernelConstants & { d4: number; Nk4: number } };

/** The score s, or `masked` when key j is padding (j ≥ Nk), after the causal diagonal, or masked out (keepValue < 0.5). */
function keptScore(s: number, i: number, j: number, Nk: number, causal: number, causalOffset: number, keepValue: number, masked: number): number {
  if (j >= Nk) {
    return masked;
  }
  if (causal > 0.5 && j > i + causalOffset) {
    return masked;
  }
  if (keepValue < 0.5) {
    return masked;
  }
  return s;
}

/** S[row, 4jq … 4jq+3] = scale·q_row·k_j or MASKED_LOGIT: one texel of q and four of K per step; output (Nk4, BH·Nq) as [x = jq, y = row]. */
function scoresBody(this: Ctx, q: number[][], k: number[][], mask: number[]): number[] {
  const d4 = this.constants.d4;
  const Nk = this.constants.Nk;
  const row = this.thread.y;
  const j0 = this.thread.x * 4;
  const bh = Math.floor((row + 0.5) / this.constants.Nq);
  const i = row - bh * this.constants.Nq;
  const k0 = (bh * Nk + Math.min(j0, Nk - 1)) * d4;
  const k1 = (bh * Nk + Math.min(j0 + 1, Nk - 1)) * d4;
  const k2 = (bh * Nk + Math.min(j0 + 2, Nk - 1)) * d4;
  const k3 = (bh * Nk + Math.min(j0 + 3, Nk - 1)) * d4;
  let s0 = 0.0;
  let s1 = 0.0;
  let s2 = 0.0;
  let s3 = 0.0;
  for (let x = 0; x < this.constants.d4; x++) {
    const qa = q[row * d4 + x];
    const a = k[k0 + x];
    const b = k[k1 + x];
    const c = k[k2 + x];
    const e = k[k3 + x];
    s0 += qa[0] * a[0] + qa[1] * a[1] + qa[2] * a[2] + qa[3] * a[3];
    s1 += qa[0] * b[0] + qa[1] * b[1] + qa[2] * b[2] + qa[3] * b[3];
    s2 += qa[0] * c[0] + qa[1] * c[1] + qa[2] * c[2] + qa[3] * c[3];
    s3 += qa[0] * e[0] + qa[1] * e[1] + qa[2] * e[2] + qa[3] * e[3];
  }
  const sc = this.constants.scale;
  const cz = this.constants.causal;
  const off = this.constants.causalOffset;
  const mk = this.constants.masked;
  let keep0 = 1.0;
  let keep1 = 1.0;
  let keep2 = 1.0;
  let keep3 = 1.0;
  if (this.constants.hasMask > 0.5) {
    keep0 = mask[i * Nk + Math.min(j0, Nk - 1)];
    keep1 = mask[i * Nk + Math.min(j0 + 1, Nk - 1)];
    keep2 = mask[i * Nk + Math.min(j0 + 2, Nk - 1)];
    keep3 = mask[i * Nk + Math.min(j0 + 3, Nk - 1)];
  }
  return [keptScore(s0 * sc, i, j0, Nk, cz, off, keep0, mk), keptScore(s1 * sc, i, j0 + 1, Nk, cz, off, keep1, mk),
    keptScore(s2 * sc, i, j0 + 2, Nk, cz, off, keep2, mk), keptScore(s3 * sc, i, j0 + 3, Nk, cz, off, keep3, mk)];
}

/** lse[row] = m + log Σⱼ exp(S[row, j] − m) over kept keys (MASKED_LOGIT for a fully masked row), in every lane. */
function rowLogsumexpBody(this: Ctx, S: number[][][]): number[] {
  const row = this.thread.x;
  let m = this.constants.masked;
  for (let jq = 0; jq < this.constants.Nk4; jq++) {
    const s = S[row][jq];
    m = Math.max(m, Math.max(Math.max(s[0], s[1]), Math.max(s[2], s[3])));
  }
  if (m < this.constants.masked * 0.5) {
    return [this.constants.masked, this.constants.masked, this.constants.masked, this.constants.masked];
  }
  let l = 0.0;
  for (let jq = 0; jq < this.constants.Nk4; jq++) {
    const s = S[row][jq];
    for (let c = 0; c < 4; c++) {
      if (s[c] > this.constants.masked * 0.5) {
        l += Math.exp(s[c] - m);
      }
    }
  }
  const lse = m + Math.log(l);
  return [lse, lse, lse, lse];
}

/** exp(s − lse), 0 where s is masked. */
function prob(s: number, lse: number, masked: number): number {
  if (s < masked * 0.5) {
    return 0.0;
  }
  return Math.exp(s - lse);
}

/** P[row, 4jq … 4jq+3] = exp(S − lse[row]), 0 where masked. */
function probabilitiesBody(this: Ctx, S: number[][][], lse: number[][][]): number[] {
  const s = S[this.thread.y][this.thread.x];
  const lv = lse[0][this.thread.y];
  const l = lv[0];
  const mk = this.constants.masked;
  return [prob(s[0], l, mk), prob(s[1], l, mk), prob(s[2], l, mk), prob(s[3], l, mk)];
}

/** O[row, 4g … 4g+3] = Σⱼ P[row, j]·V[b, h, j, 4g … 4g+3]: one P texel and four V texels per four keys; output (d4, BH·Nq). */
function outputBody(this: Ctx, P: number[][][], v: number[][]): number[] {
  const d4 = this.constants.d4;
  const Nk = this.constants.Nk;
  const row = this.thread.y;
  const g = this.thread.x;
  const bh = Math.floor((row + 0.5) / this.constants.Nq);
  let a0 = 0.0;
  let a1 = 0.0;
  let a2 = 0.0;
  let a3 = 0.0;
  for (let jq = 0; jq < this.constants.Nk4; jq++) {
    const p = P[row][jq];
    for (let c = 0; c < 4; c++) {
      const vv = v[(bh * Nk + Math.min(4 * jq + c, Nk - 1)) * d4 + g];
      a0 += p[c] * vv[0];
      a1 += p[c] * vv[1];
      a2 += p[c] * vv[2];
      a3 += p[c] * vv[3];
    }
  }
  return [a0, a1, a2, a3];
}

/**
 * Compiled standard-attention kernels for one shape and option set.
 * @see the sources of {@link createStandardAttentionKernels}: Dao et al. 2022, FlashAttention, Algorithm 0
 */
export interface StandardAttentionKernels {
  /** O (B,H,Nq,d) and lse (B,H,Nq), −Infinity for fully masked rows. */
  run(q: Float32Array, k: Float32Array, v: Float32Array): { O: Float32Array; lse: Float32Array };
  /** Bytes of the intermediates S and P (B·H·Nq·4⌈Nk/4⌉ float32 each) and lse (B·H·Nq texels of 4). */
  intermediateBytes: number;
  destroy(): void;
}

/**
 * Compiles the four launches of standard attention on `gpu`.
 *
 * Through the course's kernel plumbing (lib/kernels/gpujs): every launch reads and writes
 * four floats per texel, and S, the logsumexp and P stay on the device between launches
 * (WebGL textures). S and P are (⌈Nk/4⌉, B·H·Nq) textures, so the launch fails once
 * B·H·Nq exceeds the device's MAX_TEXTURE_SIZE (gpu.js: "Texture size … is larger than
 * supported size"). Agrees with referenceAttention within float32 rounding.
 * @param gpu a kernel context from createGpu (the caller destroys it)
 * @param shape B, H, Nq, Nk, d
 * @param o causal, scale, mask (fixed at compile time)
 * @returns {run, intermediateBytes, destroy}
 * @throws RangeError as resolveQKV; Error from gpu.js when a texture exceeds the limit
 * @example const sk = createStandardAttentionKernels(createGpu(), shape); sk.run(q, k, v).O; sk.destroy();
 *   // a (B·H·Nq·d) Float32Array equal to referenceAttention(q, k, v, shape).O within float32 rounding
 * @see Dao et al. 2022, FlashAttention, Algorithm 0
 */
export function createStandardAttentionKernels(gpu: KernelContext, shape: AttentionShape, o: AttentionOptions = {}): StandardAttentionKernels {
  const { B, H, Nq, Nk, d } = shape;
  const rows = B * H * Nq;
  const { constants, mask } = kernelConstants(new Float32Array(rows * d), new Float32Array(B * H * Nk * d), new Float32Array(B * H * Nk * d), shape, o);
  const d4 = Math.ceil(d / 4), Nk4 = Math.ceil(Nk / 4);
  const c = { ...constants, d4, Nk4 };
  const key = JSON.stringify(c);
  const scores = gpu.kernel(`attention-scores ${key}`, () => ({ body: scoresBody as never, argumentTypes: { q: "Array1D(4)", k: "Array1D(4)", mask: "Array" }, constants: c, output: [Nk4, rows], functions: [keptScore] }));
  const rowLse = gpu.kernel(`attention-lse ${key}`, () => ({ body: rowLogsumexpBody as never, argumentTypes: { S: "ArrayTexture(4)" }, constants: c, output: [rows, 1] }));
  const probs = gpu.kernel(`attention-probs ${key}`, () => ({ body: probabilitiesBody as never, argumentTypes: { S: "ArrayTexture(4)", lse: "ArrayTexture(4)" }, constants: c, output: [Nk4, rows], functions: [prob] }));
  const out = gpu.kernel(`attention-out ${key}`, () => ({ body: outputBody as never, argumentTypes: { P: "ArrayTexture(4)", v: "Array1D(4)" }, constants: c, output: [d4, rows] }));
  return {
    run(q, k, v) {
      kernelConstants(q, k, v, shape, o);
      const S = scores.texture([padColumns(q, rows, d, 4 * d4), padColumns(k, B * H * Nk, d, 4 * d4), mask]); // (BH·Nq, Nk4) texels
      const lseTex = rowLse.texture([S]);
      const P = probs.texture([S, lseTex]);
      const Opad = out.run([P, padColumns(v, B * H * Nk, d, 4 * d4)], rows * 4 * d4); // (BH·Nq, 4·d4)
      const lse4 = flattenResult(lseTex, rows * 4);
      const lse = Float32Array.from({ length: rows }, (_, r) => lse4[4 * r]);
      const O = d === 4 * d4 ? Opad : unpad(Opad, rows, 4 * d4, d); // (B, H, Nq, d)
      return { O, lse: restoreMinusInfinity(lse) };
    },
    intermediateBytes: (2 * rows * Nk4 * 4 + rows * 4) * 4,
    destroy: () => undefined,
  };
}

/** (rows, dp) → (rows, d), dropping the padding columns. */
function unpad(x: Float32Array, rows: number, dp: number, d: number): Float32Array {
  const out = new Float32Array(rows * d);
  for (let r = 0; r < rows; r++) out.set(x.subarray(r * dp, r * dp + d), r * d); // (rows, d)
  return out;
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
  const gpu = createGpu(o.mode);
  try {
    return { ...createStandardAttentionKernels(gpu, shape, o).run(q, k, v), mode: gpu.backend };
  } finally {
    gpu.destroy();
  }
}
