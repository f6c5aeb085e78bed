/**
 * FlashAttention's backward pass on the CPU: the gradients from Q, K, V, O,
 * dO and the saved logsumexp, recomputing P block by block instead of storing
 * the N×N matrix.
 */
import { flashBlockSizes } from "./flashBlockSizes.js";
import type { AttentionGradients } from "./referenceAttentionBackward.js";
import { resolveAttention, type AttentionOptions, type AttentionShape } from "./shape.js";

/**
 * Options of {@link flashAttentionBackward}: M (SRAM elements) sets the blocks as in the forward pass.
 * @see the sources of {@link flashAttentionBackward}: Dao 2023, FlashAttention-2, Algorithm 2; Dao et al. 2022, Algorithm 4
 */
export interface FlashBackwardOptions extends AttentionOptions {
  M: number;
}

/**
 * Blockwise backward pass (FlashAttention-2, Algorithm 2, without dropout).
 *
 * Dᵢ = rowsum(dOᵢ ∘ Oᵢ) (equals Σₖ Pᵢₖ dPᵢₖ); then for each key block j and
 * query block i: Sᵢⱼ = scale·QᵢKⱼᵀ, Pᵢⱼ = exp(Sᵢⱼ − lseᵢ) (0 where masked or
 * lseᵢ = −∞), dVⱼ += Pᵢⱼᵀ dOᵢ, dPᵢⱼ = dOᵢVⱼᵀ, dSᵢⱼ = Pᵢⱼ ∘ (dPᵢⱼ − Dᵢ),
 * dQᵢ += scale·dSᵢⱼKⱼ, dKⱼ += scale·dSᵢⱼᵀQᵢ. Only B_r×B_c tiles of P exist.
 * @param q queries (B, H, Nq, d)
 * @param k keys (B, H, Nk, d)
 * @param v values (B, H, Nk, d)
 * @param O forward output (B, H, Nq, d)
 * @param dO upstream gradient (B, H, Nq, d)
 * @param lse forward logsumexp (B, H, Nq), −Infinity for fully masked rows
 * @param shape B, H, Nq, Nk, d
 * @param o M, causal, scale, mask (the same as in the forward pass)
 * @returns {dQ, dK, dV}
 * @throws RangeError `lse must have length 4 (B·H·Nq), got 3`, `M must be an integer >= 1, got 0`
 * @example flashAttentionBackward(q, k, v, O, dO, lse, shape, {M: 64}).dV // equals referenceAttentionBackward(...).dV within 1e-5
 * @see Dao 2023, FlashAttention-2, Algorithm 2; Dao et al. 2022, Algorithm 4
 */
export function flashAttentionBackward(q: Float32Array, k: Float32Array, v: Float32Array, O: Float32Array, dO: Float32Array, lse: Float32Array, shape: AttentionShape, o: FlashBackwardOptions): AttentionGradients {
  const { B, H, Nq, Nk, d } = shape;
  const nq = B * H * Nq * d;
  const nk = B * H * Nk * d;
  const { scale, keep } = resolveAttention(shape, {
    q: [q, nq, "B·H·Nq·d"], k: [k, nk, "B·H·Nk·d"], v: [v, nk, "B·H·Nk·d"], O: [O, nq, "B·H·Nq·d"], dO: [dO, nq, "B·H·Nq·d"], lse: [lse, B * H * Nq, "B·H·Nq"],
  }, o);
  const { Bc, Br } = flashBlockSizes(o.M, d);
  const dQ = new Float64Array(nq);
  const dK = new Float64Array(nk);
  const dV = new Float64Array(nk);
  const P = new Float64Array(Br * Bc); // one tile (B_r, B_c)
  const dS = new Float64Array(Br * Bc); // one tile (B_r, B_c)
  for (let bh = 0; bh < B * H; bh++) {
    const qo = bh * Nq * d; // (B, H, Nq, d)
    const ko = bh * Nk * d; // (B, H, Nk, d)
    const D = new Float64Array(Nq); // (Nq)
    for (let i = 0; i < Nq; i++) for (let x = 0; x < d; x++) D[i] += dO[qo + i * d + x] * O[qo + i * d + x];
    for (let c0 = 0; c0 < Nk; c0 += Bc) {
      const bc = Math.min(Bc, Nk - c0);
      for (let r0 = 0; r0 < Nq; r0 += Br) {
        const br = Math.min(Br, Nq - r0);
        for (let r = 0; r < br; r++) {
          const i = r0 + r;
          const L = lse[bh * Nq + i];
          for (let c = 0; c < bc; c++) {
            const j = c0 + c;
            let s = 0, dp = 0;
            for (let x = 0; x < d; x++) { s += q[qo + i * d + x] * k[ko + j * d + x]; dp += dO[qo + i * d + x] * v[ko + j * d + x]; }
            const p = L === -Infinity || !keep(i, j) ? 0 : Math.exp(scale * s - L);
            P[r * Bc + c] = p;
            dS[r * Bc + c] = p * (dp - D[i]);
          }
        }
        for (let c = 0; c < bc; c++) for (let x = 0; x < d; x++) {
          let gv = 0, gk = 0;
          for (let r = 0; r < br; r++) { gv += P[r * Bc + c] * dO[qo + (r0 + r) * d + x]; gk += dS[r * Bc + c] * q[qo + (r0 + r) * d + x]; }
          dV[ko + (c0 + c) * d + x] += gv;
          dK[ko + (c0 + c) * d + x] += scale * gk;
        }
        for (let r = 0; r < br; r++) for (let x = 0; x < d; x++) {
          let g = 0;
          for (let c = 0; c < bc; c++) g += dS[r * Bc + c] * k[ko + (c0 + c) * d + x];
          dQ[qo + (r0 + r) * d + x] += scale * g;
        }
      }
    }
  }
  return { dQ: Float32Array.from(dQ), dK: Float32Array.from(dK), dV: Float32Array.from(dV) };
}
