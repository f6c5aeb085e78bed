import { notImplemented } from "../harness/index.js";

/**
 * Attention of `rows` query rows over part of the keys: the normalised output and the logsumexp of
 * each row's kept scores (−Infinity for a row that saw no kept key; its O is then 0).
 */
export interface AttentionPartial {
  /** (rows, d) row-major. */
  O: Float32Array;
  /** (rows). */
  lse: Float32Array;
}

/**
 * Exercise 13.1 — merge two partial attention results.
 *
 * `a` and `b` hold the attention of the same query rows over two disjoint sets of keys (two
 * blocks of a ring). Return the attention of those rows over the union of the keys: its O (rows, d)
 * and its logsumexp (rows), without the scores, which are gone.
 *
 * It must hold wherever ring attention meets it:
 * - a part whose keys were all masked for a row has lse = −Infinity (and O = 0) in that row: it
 *   contributes nothing; if both parts are empty the row stays empty, O = 0 and lse = −Infinity,
 *   never NaN;
 * - logsumexps of ±1e4 are ordinary (exp(1e4) is Infinity in floating point);
 * - a million rows (a 1M-token shard) at once.
 * d = O.length / rows; lse values are finite or −Infinity. Arithmetic in float64, results in new
 * Float32Arrays; do not modify the inputs. Tolerance: 1e-6 + 1e-6·|expected| per value.
 * Errors: RangeError `b.lse must have 3 rows like a.lse, got 2` when the row counts differ;
 * RangeError whose message starts with `a.O must have rows·d elements` when a.O and b.O differ in
 * length or are not a whole number of rows.
 * Read: the chapter's section "Merging two partial results".
 *
 * @param a a partial result (rows, d)
 * @param b another partial result of the same rows, over other keys
 * @returns the merged partial result (new arrays)
 * @example
 * mergeAttentionPartials({ O: Float32Array.of(4), lse: Float32Array.of(0) }, { O: Float32Array.of(8), lse: Float32Array.of(Math.log(3)) })
 * // → { O: [7], lse: [ln 4 = 1.3862944] }: softmax weights 1/4 and 3/4
 */
export function mergeAttentionPartials(a: AttentionPartial, b: AttentionPartial): AttentionPartial {
  return notImplemented("13.1");
}
