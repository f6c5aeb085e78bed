import { notImplemented } from "../harness/index.js";

/**
 * Exercise 8.1 — who owns a parameter.
 *
 * ZeRO flattens the Ψ parameters (in the model's parameter order) into one
 * buffer and splits it into P contiguous shards, as numpy.array_split splits
 * an array: the first Ψ mod P shards hold ⌈Ψ/P⌉ elements, the others ⌊Ψ/P⌋.
 * Rank r owns shard r: its optimizer states (stage 1), gradients (stage 2) and
 * parameters (stage 3). Return the rank that owns flat element `index` and the
 * element's offset inside that rank's shard. Work in O(1) (Ψ can be 7.5e9).
 *
 * Errors (RangeError), checked in this order: `numRanks must be an integer >= 1, got 0`;
 * `numParams must be an integer >= 1, got 0`; `index must be an integer in [0, 10), got 10`.
 * Read: the page's section "Who owns which shard".
 *
 * @param numParams Ψ
 * @param numRanks P
 * @param index flat element index
 * @returns `{rank, offset}`
 * @example shardOwner(10, 4, 7) // { rank: 2, offset: 1 } (shards [0,3) [3,6) [6,8) [8,10))
 */
export function shardOwner(numParams: number, numRanks: number, index: number): { rank: number; offset: number } {
  return notImplemented("8.1");
}
