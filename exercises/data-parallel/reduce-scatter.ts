import { notImplemented } from "../harness/index.js";

/**
 * Exercise 5.3 — reduce-scatter.
 *
 * P ranks each hold a buffer of n numbers. Return, for rank r, chunk r of
 * their elementwise sum, where the buffer is cut into P chunks like
 * numpy.array_split (and like torch.chunk would if it never returned fewer
 * chunks): the first n mod P chunks have ⌈n/P⌉ numbers, the others ⌊n/P⌋.
 * This is what ZeRO and FSDP use to leave each rank with its shard of the
 * summed gradients.
 *
 * Edge cases: n < P (some ranks get an empty array), n = 0, P = 1 (the whole
 * buffer). Tolerance |Δ| ≤ 1e-9 + 1e-9·|expected|. Do not modify `buffers`.
 * Read: the chapter's "reduce-scatter and all-gather" section.
 *
 * @param buffers P arrays of n numbers
 * @returns P arrays: result[r] = Σ_q buffers[q][start_r … end_r)
 * @example reduceScatter([[1, 2, 3], [10, 20, 30]]) // [[11, 22], [33]]
 */
export function reduceScatter(buffers: number[][]): number[][] {
  return notImplemented("5.3");
}
