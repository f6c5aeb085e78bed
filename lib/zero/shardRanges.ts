/**
 * Who owns which elements: ZeRO's partition of the flattened parameters,
 * and the part of any range that each rank owns.
 */
import { chunkBounds, type ChunkRange } from "../collectives/index.js";

/**
 * The ZeRO-DP partition: the Ψ flattened parameters (in `model.params` order)
 * split into P contiguous shards, rank r owning `chunkBounds(Ψ, P)[r]` (the
 * first Ψ mod P ranks hold one element more; shards may be empty when Ψ < P).
 * It is the same split as ring all-reduce's chunks, so a reduce-scatter into
 * the shards adds every element in the same order as DDP's all-reduce.
 *
 * @param numElements Ψ, parameters (integer ≥ 0)
 * @param numRanks P, data-parallel ranks (integer ≥ 1)
 * @returns P ranges covering [0, Ψ), in rank order
 * @throws RangeError `numRanks must be an integer >= 1, got 0`; `numElements must be an integer >= 0, got -1`
 * @example zeroPartition(10, 4) // [{start:0,end:3},{start:3,end:6},{start:6,end:8},{start:8,end:10}]
 * @see Rajbhandari et al. 2020, ZeRO, §5.1 ("partitions the optimizer states into N_d equal partitions"); DeepSpeed stage_1_and_2.py (flattened groups split per rank)
 */
export function zeroPartition(numElements: number, numRanks: number): ChunkRange[] {
  return chunkBounds(numElements, numRanks);
}

/**
 * The part of `range` each rank owns: P ranges (each inside `range`, possibly empty).
 * @param range a half-open range [start, end) of the flat buffer
 * @param shards the partition (P ranges)
 * @returns P ranges, `shards[r] ∩ range` (an empty range at `range.start` when disjoint)
 * @example ownedParts({ start: 2, end: 7 }, zeroPartition(10, 4)) // [{2,3},{3,6},{6,7},{2,2}]
 * @see {@link zeroPartition}
 */
export function ownedParts(range: ChunkRange, shards: readonly ChunkRange[]): ChunkRange[] {
  return shards.map((s) => {
    const start = Math.max(s.start, range.start), end = Math.min(s.end, range.end);
    return end > start ? { start, end } : { start: range.start, end: range.start };
  });
}

/**
 * Elements in a range.
 * @param r the range
 * @returns end − start
 * @example rangeLength({ start: 3, end: 7 }) // 4
 * @see {@link ownedParts}
 */
export function rangeLength(r: ChunkRange): number {
  return r.end - r.start;
}

/**
 * The rank that owns flat element `index` under {@link zeroPartition}, and its offset inside that rank's shard.
 * @param numParams Ψ (integer ≥ 1)
 * @param numRanks P (integer ≥ 1)
 * @param index element index in [0, Ψ)
 * @returns `{rank, offset}`
 * @throws RangeError `numRanks must be an integer >= 1, got 0`; `numParams must be an integer >= 1, got 0`; `index must be an integer in [0, 10), got 10`
 * @example shardOwner(10, 4, 7) // { rank: 2, offset: 1 } (shards [0,3) [3,6) [6,8) [8,10))
 * @see Rajbhandari et al. 2020, ZeRO, §5.1; numpy.array_split (the split rule)
 */
export function shardOwner(numParams: number, numRanks: number, index: number): { rank: number; offset: number } {
  if (!Number.isInteger(numRanks) || numRanks < 1) throw new RangeError(`numRanks must be an integer >= 1, got ${numRanks}`);
  if (!Number.isInteger(numParams) || numParams < 1) throw new RangeError(`numParams must be an integer >= 1, got ${numParams}`);
  if (!Number.isInteger(index) || index < 0 || index >= numParams) throw new RangeError(`index must be an integer in [0, ${numParams}), got ${index}`);
  const base = Math.floor(numParams / numRanks), extra = numParams % numRanks;
  const big = extra * (base + 1); // elements in the first `extra` shards, one longer each
  const rank = index < big ? Math.floor(index / (base + 1)) : extra + Math.floor((index - big) / base);
  return { rank, offset: index - (rank < extra ? rank * (base + 1) : big + (rank - extra) * base) };
}
