/**
 * Megatron-LM's rank groups: ranks laid out on a grid of parallel dimensions
 * in a given order (the first dimension varies fastest), and the groups that
 * vary along a chosen subset of them.
 */

/**
 * The groups of ranks that differ only along the masked dimensions of a grid.
 *
 * With sizes s_0 … s_{n−1} in order, rank = Σ_i idx_i · Π_{j<i} s_j. Each group fixes the unmasked indices and
 * runs over the masked ones (first masked dimension fastest); groups come in the order of the unmasked indices
 * (first fastest). This is Megatron's `generate_masked_orthogonal_rank_groups`.
 *
 * @param sizes the size of each dimension, in order (integers ≥ 1)
 * @param mask true for the dimensions a group spans (same length as sizes)
 * @returns Π(unmasked sizes) groups of Π(masked sizes) ranks
 * @throws {RangeError} `sizes must be integers >= 1, got [2, 0]`; `mask must have 2 entries, got 1`
 * @example maskedRankGroups([2, 3, 4], [false, true, false])[7] // [19, 21, 23] (Megatron's docstring example: tp 2, dp 3, pp 4)
 * @see Megatron-LM `megatron/core/parallel_state.py` at d98e8a6 (`generate_masked_orthogonal_rank_groups`, `RankGenerator`)
 */
export function maskedRankGroups(sizes: readonly number[], mask: readonly boolean[]): number[][] {
  if (sizes.some((s) => !Number.isInteger(s) || s < 1)) throw new RangeError(`sizes must be integers >= 1, got [${sizes.join(", ")}]`);
  if (mask.length !== sizes.length) throw new RangeError(`mask must have ${sizes.length} entries, got ${mask.length}`);
  const stride: number[] = [];
  sizes.reduce((p, s) => { stride.push(p); return p * s; }, 1);
  const pick = (m: boolean) => sizes.map((s, i) => [s, stride[i]] as const).filter((_, i) => mask[i] === m);
  const masked = pick(true), unmasked = pick(false);
  const decompose = (index: number, dims: readonly (readonly [number, number])[]) => { let rest = index; return dims.map(([s]) => { const v = rest % s; rest = Math.floor(rest / s); return v; }); };
  const count = (dims: readonly (readonly [number, number])[]) => dims.reduce((p, [s]) => p * s, 1);
  const dot = (idx: number[], dims: readonly (readonly [number, number])[]) => idx.reduce((a, v, i) => a + v * dims[i][1], 0);
  return Array.from({ length: count(unmasked) }, (_, g) => {
    const base = dot(decompose(g, unmasked), unmasked);
    return Array.from({ length: count(masked) }, (_, r) => base + dot(decompose(r, masked), masked));
  });
}
