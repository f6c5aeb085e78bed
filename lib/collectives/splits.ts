/**
 * Checking and laying out the P×P split table of an all-to-all.
 */

/**
 * Checks an all-to-all's split table: P rows of P integers ≥ 0.
 * @param splits splits[r][d]: elements from rank r to rank d
 * @param numRanks P
 * @returns splits, unchanged
 * @throws RangeError `splits must be a P×P table of integers >= 0 (P = 2), got 1 rows`; `splits[1] must have 2 entries, got 3`;
 *   `splits[1][0] must be an integer >= 0, got -1`
 * @example checkSplits([[0, 1], [2, 0]], 2) // the same table
 * @see torch.distributed.all_to_all_single (input_split_sizes and output_split_sizes)
 */
export function checkSplits(splits: readonly (readonly number[])[], numRanks: number): readonly (readonly number[])[] {
  if (!Array.isArray(splits) || splits.length !== numRanks) {
    throw new RangeError(`splits must be a P×P table of integers >= 0 (P = ${numRanks}), got ${Array.isArray(splits) ? splits.length : String(splits)} rows`);
  }
  splits.forEach((row, r) => {
    if (!Array.isArray(row) || row.length !== numRanks) throw new RangeError(`splits[${r}] must have ${numRanks} entries, got ${Array.isArray(row) ? row.length : String(row)}`);
    row.forEach((v, d) => {
      if (!Number.isInteger(v) || v < 0) throw new RangeError(`splits[${r}][${d}] must be an integer >= 0, got ${v}`);
    });
  });
  return splits;
}

/**
 * Where each segment of an all-to-all starts: in the sender's buffer, segments
 * are in the order of their receivers; in the receiver's, in the order of their senders.
 * @param splits a checked P×P table (splits[r][d] elements from r to d)
 * @returns sendOffsets[r][d] = Σ_{d'<d} splits[r][d'], receiveOffsets[d][r] = Σ_{r'<r} splits[r'][d], receiveTotals[d] = Σ_r splits[r][d]
 * @example splitOffsets([[1, 2], [1, 1]]).receiveOffsets // [[0, 1], [0, 2]]
 * @see MPI 4.0 standard §6.8 (MPI_Alltoallv's sdispls and rdispls)
 */
export function splitOffsets(splits: readonly (readonly number[])[]): { sendOffsets: number[][]; receiveOffsets: number[][]; receiveTotals: number[] } {
  const P = splits.length;
  const sendOffsets = splits.map((row) => { let o = 0; return row.map((v) => { const at = o; o += v; return at; }); });
  const receiveOffsets = Array.from({ length: P }, (_, d) => { let o = 0; return splits.map((row) => { const at = o; o += row[d]; return at; }); });
  const receiveTotals = Array.from({ length: P }, (_, d) => splits.reduce((s, row) => s + row[d], 0));
  return { sendOffsets, receiveOffsets, receiveTotals };
}
