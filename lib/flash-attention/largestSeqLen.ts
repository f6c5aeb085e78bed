/**
 * The longest sequence each gpu.js attention kernel can launch with, given
 * the device's MAX_TEXTURE_SIZE: gpu.js stores a 2-D output (x, y) in an x×y
 * texture and a 1-D output or input of n values in a near-square texture.
 */

/**
 * Texture-size bound on N (= Nq = Nk) for both kernels.
 *
 * Standard attention writes S and P as (Nk, B·H·Nq) textures, so it needs
 * Nk ≤ T and B·H·Nq ≤ T (T = MAX_TEXTURE_SIZE). The FlashAttention kernel's
 * largest array is B·H·N·d values (Q, K, V, and O with the logsumexp packed 4
 * per texel), laid out near-square, so it needs about B·H·N·d ≤ T². Memory
 * usually runs out before the flash bound.
 * @param maxTextureSize the device's MAX_TEXTURE_SIZE, integer >= 1 (8192 on SwiftShader)
 * @param d head dimension, integer >= 1
 * @param BH batch × heads, integer >= 1 (default 1)
 * @returns {standard, flash}: the largest N each kernel can launch
 * @throws RangeError `maxTextureSize must be an integer >= 1, got 0` (likewise d, BH)
 * @example largestSeqLen(8192, 64) // {standard: 8192, flash: 1048576}
 * @see gpu.js src/utils.js getKernelTextureSize; src/backend/gl/kernel.js (the "larger than supported size" check)
 */
export function largestSeqLen(maxTextureSize: number, d: number, BH = 1): { standard: number; flash: number } {
  for (const [name, v] of [["maxTextureSize", maxTextureSize], ["d", d], ["BH", BH]] as const) {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be an integer >= 1, got ${v}`);
  }
  return {
    standard: Math.min(maxTextureSize, Math.floor(maxTextureSize / BH)),
    flash: Math.floor((maxTextureSize * maxTextureSize) / (BH * d)),
  };
}
