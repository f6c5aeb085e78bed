/**
 * Which expert-parallel rank holds which experts: Megatron's contiguous
 * placement, E/P experts per rank.
 */

/**
 * Checks that P ranks can hold E experts evenly.
 * @param numExperts E (integer ≥ 1)
 * @param epSize P (integer ≥ 1)
 * @returns E/P, the experts per rank
 * @throws {RangeError} `epSize must be an integer >= 1, got 0`; `numExperts (6) must be divisible by epSize (4)`
 * @example localExpertCount(8, 4) // 2
 * @see Megatron-LM `megatron/core/transformer/moe/moe_layer.py` at d98e8a6 (`num_local_experts = num_moe_experts // ep_size`, asserted divisible)
 */
export function localExpertCount(numExperts: number, epSize: number): number {
  if (!Number.isInteger(epSize) || epSize < 1) throw new RangeError(`epSize must be an integer >= 1, got ${epSize}`);
  if (!Number.isInteger(numExperts) || numExperts < 1) throw new RangeError(`numExperts must be an integer >= 1, got ${numExperts}`);
  if (numExperts % epSize !== 0) throw new RangeError(`numExperts (${numExperts}) must be divisible by epSize (${epSize})`);
  return numExperts / epSize;
}

/**
 * The rank that holds expert e: ⌊e / (E/P)⌋ (rank r holds experts r·E/P … (r+1)·E/P − 1).
 * @param expert e, in [0, E)
 * @param numExperts E
 * @param epSize P (dividing E)
 * @returns the owning rank
 * @throws {RangeError} `expert must be an integer in [0, 8), got 8`; and those of {@link localExpertCount}
 * @example expertOwner(5, 8, 4) // 2 (rank 2 holds experts 4 and 5)
 * @see Megatron-LM moe_layer.py at d98e8a6 (`local_expert_indices_offset = ep_rank * num_local_experts`)
 */
export function expertOwner(expert: number, numExperts: number, epSize: number): number {
  const L = localExpertCount(numExperts, epSize);
  if (!Number.isInteger(expert) || expert < 0 || expert >= numExperts) throw new RangeError(`expert must be an integer in [0, ${numExperts}), got ${expert}`);
  return Math.floor(expert / L);
}
