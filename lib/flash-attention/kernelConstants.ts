/**
 * Constants baked into this chapter's gpu.js kernels: sizes, scale and how
 * masking applies, plus the sentinel that stands for −∞ inside a kernel.
 */
import { resolveQKV, type AttentionOptions, type AttentionShape } from "./shape.js";

/**
 * Logit used for "masked" and as the initial running max inside kernels: a
 * finite stand-in for −∞ (no backend is trusted with infinities). Kernel
 * outputs ≤ MASKED_LOGIT / 2 are turned back into −Infinity on the host.
 * @example Math.exp(MASKED_LOGIT - 0) // 0: a masked logit contributes nothing to the softmax
 * @see Dao et al. 2022, *FlashAttention*, Algorithm 1 (m initialised to −∞) and Algorithm 2 (masking)
 */
export const MASKED_LOGIT = -1e30;

/**
 * Kernel constants: sizes, scale, causal flag and diagonal offset, whether a mask array is passed.
 * @see the sources of {@link MASKED_LOGIT}: Dao et al. 2022, *FlashAttention*, Algorithm 1 (m initialised to −∞) and Algorithm 2 (masking)
 */
export interface KernelConstants {
  [key: string]: number;
  BH: number;
  Nq: number;
  Nk: number;
  d: number;
  scale: number;
  /** 1 if causal, else 0. */
  causal: number;
  /** Key j is kept for query i iff j ≤ i + causalOffset: Nk − Nq (bottom-right) or 0 (top-left). */
  causalOffset: number;
  /** 1 if the (Nq, Nk) mask array is used, else 0. */
  hasMask: number;
  masked: number;
}

/**
 * Validates the inputs and builds the kernel constants and the mask argument.
 * @param q queries (B, H, Nq, d)
 * @param k keys (B, H, Nk, d)
 * @param v values (B, H, Nk, d)
 * @param shape B, H, Nq, Nk, d
 * @param o causal, scale, mask
 * @returns {constants, mask}: the mask as float 0/1 (Nq·Nk) or a 1-element placeholder
 * @throws RangeError as resolveQKV
 * @example kernelConstants(q, k, v, {B: 1, H: 1, Nq: 2, Nk: 5, d: 4}, {causal: "bottom-right"}).constants.causalOffset // 3
 * @see isCausalAllowed
 */
export function kernelConstants(q: Float32Array, k: Float32Array, v: Float32Array, shape: AttentionShape, o: AttentionOptions = {}): { constants: KernelConstants; mask: Float32Array } {
  const { scale } = resolveQKV(q, k, v, shape, o);
  const { B, H, Nq, Nk, d } = shape;
  const constants: KernelConstants = {
    BH: B * H, Nq, Nk, d, scale,
    causal: o.causal ? 1 : 0,
    causalOffset: o.causal === "top-left" ? 0 : Nk - Nq,
    hasMask: o.mask ? 1 : 0,
    masked: MASKED_LOGIT,
  };
  return { constants, mask: o.mask ? Float32Array.from(o.mask) : new Float32Array(1) };
}

/**
 * Maps kernel logsumexp values ≤ MASKED_LOGIT/2 (fully masked rows) to −Infinity, in place.
 * @param lse (B·H·Nq,) logsumexp values read back from a kernel (modified)
 * @returns lse, with the sentinel values replaced by −Infinity
 * @example restoreMinusInfinity(Float32Array.of(-1e30, 0.5)) // Float32Array [-Infinity, 0.5]
 * @see Dao et al. 2022, *FlashAttention*, Algorithm 1 (ℓ and m of a row with no kept key: logsumexp −∞); PyTorch scaled_dot_product_attention docs (fully masked rows)
 */
export function restoreMinusInfinity(lse: Float32Array): Float32Array {
  for (let i = 0; i < lse.length; i++) if (lse[i] <= MASKED_LOGIT / 2) lse[i] = -Infinity;
  return lse;
}
