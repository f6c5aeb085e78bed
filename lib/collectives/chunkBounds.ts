import { checkNumElements, checkNumRanks } from "./costModel.js";

/**
 * The half-open element range [start, end) of one chunk.
 * @see the sources of {@link chunkBounds}: torch.chunk / numpy.array_split (same split rule as array_split)
 */
export interface ChunkRange {
  start: number;
  end: number;
}

/**
 * Splits a buffer of n elements into P contiguous chunks, as equal as
 * possible: the first n mod P chunks get ⌈n/P⌉ elements, the others ⌊n/P⌋
 * (so chunks may be empty when n < P).
 *
 * @param numElements n, the buffer length (integer ≥ 0)
 * @param numRanks P, the number of chunks (integer ≥ 1)
 * @returns P ranges, in order, covering [0, n)
 * @throws RangeError `numRanks must be an integer >= 1, got 0`; `numElements must be an integer >= 0, got -1`
 * @example chunkBounds(10, 4) // [{start:0,end:3},{start:3,end:6},{start:6,end:8},{start:8,end:10}]
 * @see torch.chunk / numpy.array_split (same split rule as array_split)
 */
export function chunkBounds(numElements: number, numRanks: number): ChunkRange[] {
  checkNumElements(numElements);
  checkNumRanks(numRanks);
  const base = Math.floor(numElements / numRanks);
  const extra = numElements % numRanks;
  const out: ChunkRange[] = [];
  let start = 0;
  for (let c = 0; c < numRanks; c++) {
    const len = base + (c < extra ? 1 : 0);
    out.push({ start, end: start + len });
    start += len;
  }
  return out;
}
