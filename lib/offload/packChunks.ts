/**
 * Colossal-AI Gemini's chunks: parameters, in the order given (GeminiDDP: the
 * order of `module.parameters()`), packed into equal-size chunks; a parameter
 * never spans two chunks.
 */

/** One chunk: which parameters it holds and how full it is. */
export interface Chunk {
  /** 0-based chunk index. */
  index: number;
  /** Indices of the parameters in this chunk, in order. */
  params: number[];
  /** Elements used (≤ chunk size). */
  usedElements: number;
}

/** Checks a list of parameter sizes (elements). */
export function checkSizes(sizes: readonly number[]): void {
  if (!Array.isArray(sizes)) throw new TypeError(`sizes must be an array of element counts, got ${String(sizes)}`);
  sizes.forEach((s, i) => { if (!Number.isSafeInteger(s) || s < 1) throw new RangeError(`sizes[${i}] must be an integer >= 1, got ${s}`); });
}

/**
 * Packs parameters into chunks of `chunkSize` elements, in order: a parameter
 * goes into the current chunk if it fits in what is left, else it opens a new
 * chunk (what was left is wasted). This is the rule of Colossal-AI's
 * `_get_unused_byte`, whose sum over chunks (the last chunk's tail included)
 * is the waste the chunk-size search minimises.
 *
 * @param sizes parameter sizes in elements, in packing order (each an integer ≥ 1)
 * @param chunkSize elements per chunk (an integer ≥ the largest parameter)
 * @returns the chunks, new objects, and the wasted elements
 * @throws RangeError `chunkSize must be >= the largest parameter (sizes[2] = 300 elements), got 256`;
 *   `sizes[0] must be an integer >= 1, got 0`
 * @example packChunks([3, 4, 2, 5], 6).chunks.map((c) => c.params) // [[0], [1, 2], [3]]; waste 3 + 0 + 1 = 4
 * @see Colossal-AI `colossalai/zero/gemini/chunk/search_utils.py` (`_get_unused_byte`) and `chunk/manager.py` (`ChunkManager.register_tensor`),
 *   commit 4f9953be335ef371b3848719ddafe596c01ecd37; Fang et al. 2022, *PatrickStar*, §4 (chunk-based memory management)
 */
export function packChunks(sizes: readonly number[], chunkSize: number): { chunks: Chunk[]; wasteElements: number } {
  checkSizes(sizes);
  const largest = sizes.reduce((b, s, i) => (s > sizes[b] ? i : b), 0);
  if (!Number.isSafeInteger(chunkSize) || chunkSize < 1) throw new RangeError(`chunkSize must be an integer >= 1, got ${chunkSize}`);
  if (sizes.length > 0 && chunkSize < sizes[largest]) throw new RangeError(`chunkSize must be >= the largest parameter (sizes[${largest}] = ${sizes[largest]} elements), got ${chunkSize}`);
  const chunks: Chunk[] = [];
  let cur: Chunk | null = null;
  sizes.forEach((s, i) => {
    if (cur === null || cur.usedElements + s > chunkSize) {
      cur = { index: chunks.length, params: [], usedElements: 0 };
      chunks.push(cur);
    }
    cur.params.push(i);
    cur.usedElements += s;
  });
  const wasteElements = chunks.reduce((a, c) => a + chunkSize - c.usedElements, 0);
  return { chunks, wasteElements };
}
