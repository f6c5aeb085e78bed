/**
 * FlashAttention's block sizes from the on-chip SRAM size M (in elements):
 * B_c = ⌈M / 4d⌉ key/value rows and B_r = min(⌈M / 4d⌉, d) query rows, so
 * that the tiles K_j, V_j (B_c×d each), Q_i, O_i (B_r×d each) fit in O(M).
 * @param M SRAM size in elements, integer >= 1
 * @param d head dimension, integer >= 1
 * @returns {Bc, Br}
 * @throws RangeError `M must be an integer >= 1, got 0`, `d must be an integer >= 1, got 0`
 * @example flashBlockSizes(1024, 64) // {Bc: 4, Br: 4}
 * @example flashBlockSizes(100_000, 64) // {Bc: 391, Br: 64}
 * @see Dao et al. 2022, FlashAttention, Algorithm 1 line 1
 */
export function flashBlockSizes(M: number, d: number): { Bc: number; Br: number } {
  if (!Number.isInteger(M) || M < 1) throw new RangeError(`M must be an integer >= 1, got ${M}`);
  if (!Number.isInteger(d) || d < 1) throw new RangeError(`d must be an integer >= 1, got ${d}`);
  const Bc = Math.ceil(M / (4 * d));
  return { Bc, Br: Math.min(Bc, d) };
}
