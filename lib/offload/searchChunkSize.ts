/**
 * Colossal-AI's chunk-size search: try sizes from the largest parameter up,
 * keep the one that wastes the fewest elements.
 */
import { checkSizes, packChunks } from "./packChunks.js";

/** Options of {@link searchChunkSize}, with Colossal-AI's names. */
export interface ChunkSearchOptions {
  /** How far above the start size to search, elements (integer ≥ 0); `search_range_m` × 2²⁰ in Colossal-AI. */
  searchRange: number;
  /** Step between candidate sizes, elements (integer ≥ 1); `search_interval` (the hidden size works well). */
  searchInterval: number;
  /** Smallest chunk size, elements (integer ≥ 1; default 1); `min_chunk_size_m` × 2²⁰. */
  minChunkSize?: number;
}

/** The search's answer. */
export interface ChunkSearchResult {
  /** The size with the least waste (the smallest such size on a tie). */
  chunkSize: number;
  wasteElements: number;
  /** Every candidate and its waste, in the order tried. */
  candidates: { chunkSize: number; wasteElements: number }[];
}

/**
 * Searches chunk sizes start, start + interval, …, start + range, where start
 * is max(largest parameter, minChunkSize) rounded up to a multiple of the
 * interval, and returns the one whose {@link packChunks} waste is smallest.
 *
 * Left out from Colossal-AI: parameters larger than mean + 3 standard
 * deviations are filtered out before the search, a group smaller than the
 * minimum stays gathered in one chunk, and the best size is finally rounded
 * up to a multiple of the least common multiple of the data-parallel degrees
 * (`best_chunk_size + (-best_chunk_size % size_lcm)`), after the waste was
 * computed: Colossal-AI's chunks are that much larger than the size returned
 * here, and the waste returned is the waste before rounding.
 *
 * @param sizes parameter sizes in elements, in the model's parameter order
 * @param o search range, interval, minimum
 * @returns the best size, its waste, and every candidate
 * @throws RangeError `searchInterval must be an integer >= 1, got 0`; `searchRange must be an integer >= 0, got -1`;
 *   `sizes[1] must be an integer >= 1, got 0`
 * @example searchChunkSize([3, 4, 2, 5], { searchRange: 4, searchInterval: 1 }).chunkSize // 7: chunks [3,4] [2,5], no waste
 * @see Colossal-AI `colossalai/zero/gemini/chunk/search_utils.py` (`search_chunk_configuration`), commit 4f9953be335ef371b3848719ddafe596c01ecd37
 */
export function searchChunkSize(sizes: readonly number[], o: ChunkSearchOptions): ChunkSearchResult {
  checkSizes(sizes);
  const { searchRange, searchInterval } = o;
  const minChunkSize = o.minChunkSize ?? 1;
  if (!Number.isSafeInteger(searchRange) || searchRange < 0) throw new RangeError(`searchRange must be an integer >= 0, got ${searchRange}`);
  if (!Number.isSafeInteger(searchInterval) || searchInterval < 1) throw new RangeError(`searchInterval must be an integer >= 1, got ${searchInterval}`);
  if (!Number.isSafeInteger(minChunkSize) || minChunkSize < 1) throw new RangeError(`minChunkSize must be an integer >= 1, got ${minChunkSize}`);
  const start = Math.ceil(Math.max(minChunkSize, ...sizes) / searchInterval) * searchInterval;
  const candidates: { chunkSize: number; wasteElements: number }[] = [];
  let best = { chunkSize: start, wasteElements: Infinity };
  for (let cs = start; cs <= start + searchRange; cs += searchInterval) {
    const { wasteElements } = packChunks(sizes, cs);
    candidates.push({ chunkSize: cs, wasteElements });
    if (wasteElements < best.wasteElements) best = { chunkSize: cs, wasteElements };
  }
  return { ...best, candidates };
}
