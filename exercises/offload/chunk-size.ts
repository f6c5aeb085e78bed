import { notImplemented } from "../harness/index.js";

/**
 * Exercise 9.3 — Gemini's chunk-size search.
 *
 * Parameters are packed into chunks of `chunkSize` elements in the given order; a parameter never
 * spans two chunks (if it does not fit in what is left of the current chunk, that rest is wasted and
 * a new chunk starts). The waste of a size is every unused element, the last chunk's tail included.
 * Try the sizes start, start + searchInterval, …, up to start + searchRange, where start is
 * max(largest parameter, minChunkSize) rounded up to a multiple of searchInterval, and return the size
 * with the least waste (the smallest one on a tie) and its waste. This is Colossal-AI's
 * `search_chunk_configuration` without its filtering of outsized parameters and without its final
 * rounding of the size up to a multiple of the data-parallel degrees (the waste is the waste before it).
 *
 * Errors (RangeError): `sizes[1] must be an integer >= 1, got 0`; `searchRange must be an integer >= 0, got -1`;
 * `searchInterval must be an integer >= 1, got 0`; `minChunkSize must be an integer >= 1, got 0`.
 * Read: the chapter's section "Chunks and the chunk-size search".
 *
 * @param sizes parameter sizes in elements, in the model's parameter order (Gemini packs chunks in the order the model creates its parameters)
 * @param o searchRange (elements, ≥ 0), searchInterval (elements, ≥ 1), minChunkSize (elements, default 1)
 * @returns the best chunk size and its waste, in elements
 * @example searchChunkSize([3, 4, 2, 5], { searchRange: 4, searchInterval: 1 }) // { chunkSize: 7, wasteElements: 0 }
 */
export function searchChunkSize(sizes: number[], o: { searchRange: number; searchInterval: number; minChunkSize?: number }): { chunkSize: number; wasteElements: number } {
  return notImplemented("9.3");
}
