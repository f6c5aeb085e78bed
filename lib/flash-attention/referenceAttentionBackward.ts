/**
 * The gradient of standard attention, derived analytically and computed with
 * the full N×N matrix P: the oracle for FlashAttention's backward pass.
 */
import { resolveAttention, type AttentionOptions, type AttentionShape } from "./shape.js";

/**
 * Gradients of a scalar loss with respect to Q (B,H,Nq,d), K and V (B,H,Nk,d).
 * @see the sources of {@link referenceAttentionBackward}: Dao et al. 2022, FlashAttention, Appendix B.2 (standard attention backward)
 */
export interface AttentionGradients {
  dQ: Float32Array;
  dK: Float32Array;
  dV: Float32Array;
}

/**
 * Backward pass of O = softmax(scale·QKᵀ + mask)V given dO = ∂L/∂O.
 *
 * With P the softmax (0 where masked): dV = Pᵀ·dO; dP = dO·Vᵀ;
 * dSᵢⱼ = Pᵢⱼ(dPᵢⱼ − Σₖ Pᵢₖ dPᵢₖ) (the softmax Jacobian); dQ = scale·dS·K;
 * dK = scale·dSᵀ·Q. Fully masked rows have P = 0 and contribute nothing.
 * Float64 inside, float32 out.
 * @param q queries (B, H, Nq, d)
 * @param k keys (B, H, Nk, d)
 * @param v values (B, H, Nk, d)
 * @param dO upstream gradient (B, H, Nq, d)
 * @param shape B, H, Nq, Nk, d
 * @param o causal, scale, mask as for referenceAttention
 * @returns {dQ, dK, dV}
 * @throws RangeError `dO must have length 8 (B·H·Nq·d), got 7` and those of resolveAttention
 * @example referenceAttentionBackward(q, k, v, dO, {B: 1, H: 1, Nq: 1, Nk: 1, d: 1}).dV // = dO (one key: P = 1)
 * @see Dao et al. 2022, FlashAttention, Appendix B.2 (standard attention backward)
 */
export function referenceAttentionBackward(q: Float32Array, k: Float32Array, v: Float32Array, dO: Float32Array, shape: AttentionShape, o: AttentionOptions = {}): AttentionGradients {
  const { B, H, Nq, Nk, d } = shape;
  const { scale, keep } = resolveAttention(shape, {
    q: [q, B * H * Nq * d, "B·H·Nq·d"], k: [k, B * H * Nk * d, "B·H·Nk·d"], v: [v, B * H * Nk * d, "B·H·Nk·d"], dO: [dO, B * H * Nq * d, "B·H·Nq·d"],
  }, o);
  const dQ = new Float32Array(q.length);
  const dK = new Float32Array(k.length);
  const dV = new Float32Array(v.length);
  const P = new Float64Array(Nq * Nk); // (Nq, Nk)
  const dS = new Float64Array(Nq * Nk); // (Nq, Nk)
  const dot = (a: Float32Array, ai: number, b: Float32Array, bi: number) => { let s = 0; for (let x = 0; x < d; x++) s += a[ai + x] * b[bi + x]; return s; };
  for (let bh = 0; bh < B * H; bh++) {
    const qo = bh * Nq * d; // (B, H, Nq, d)
    const ko = bh * Nk * d; // (B, H, Nk, d)
    for (let i = 0; i < Nq; i++) {
      let m = -Infinity;
      for (let j = 0; j < Nk; j++) { P[i * Nk + j] = keep(i, j) ? scale * dot(q, qo + i * d, k, ko + j * d) : -Infinity; m = Math.max(m, P[i * Nk + j]); }
      let l = 0;
      for (let j = 0; j < Nk; j++) { P[i * Nk + j] = m === -Infinity ? 0 : Math.exp(P[i * Nk + j] - m); l += P[i * Nk + j]; }
      for (let j = 0; j < Nk; j++) if (l > 0) P[i * Nk + j] /= l;
      let rowDot = 0; // Σₖ Pᵢₖ dPᵢₖ
      for (let j = 0; j < Nk; j++) { dS[i * Nk + j] = dot(dO, qo + i * d, v, ko + j * d); rowDot += P[i * Nk + j] * dS[i * Nk + j]; }
      for (let j = 0; j < Nk; j++) dS[i * Nk + j] = P[i * Nk + j] * (dS[i * Nk + j] - rowDot);
    }
    for (let j = 0; j < Nk; j++) for (let x = 0; x < d; x++) {
      let gv = 0, gk = 0;
      for (let i = 0; i < Nq; i++) { gv += P[i * Nk + j] * dO[qo + i * d + x]; gk += dS[i * Nk + j] * q[qo + i * d + x]; }
      dV[ko + j * d + x] = gv;
      dK[ko + j * d + x] = scale * gk;
    }
    for (let i = 0; i < Nq; i++) for (let x = 0; x < d; x++) {
      let g = 0;
      for (let j = 0; j < Nk; j++) g += dS[i * Nk + j] * k[ko + j * d + x];
      dQ[qo + i * d + x] = scale * g;
    }
  }
  return { dQ, dK, dV };
}
