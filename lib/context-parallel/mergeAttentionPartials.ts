/**
 * The log-sum-exp rule that merges two partial attention results of the same
 * query rows, each computed over a different set of keys.
 */
import { logsumexp } from "../flash-attention/logsumexp.js";

/**
 * Attention over part of the keys, for `rows` query rows: the normalised output
 * O (rows, d) and the logsumexp of each row's kept scores (−Infinity for a row
 * that saw no kept key, whose O is 0).
 * @see the sources of {@link mergeAttentionPartials}
 */
export interface AttentionPartial {
  /** (rows, d) row-major: each row is softmax-weighted values over this part's keys. */
  O: Float32Array;
  /** (rows): log Σⱼ exp(sⱼ) over this part's kept keys; −Infinity when none was kept. */
  lse: Float32Array;
}

/**
 * Merges two partials of the same rows into the partial over the union of their keys.
 *
 * With a = lse_a, b = lse_b and lse = log(eᵃ + eᵇ) (computed as m + log(e^{a−m} + e^{b−m}),
 * m = max(a, b), so that a = b = 1e4 does not overflow):
 * O = e^{a−lse}·O_a + e^{b−lse}·O_b. A part with lse = −∞ has weight 0 (it saw
 * only masked keys, and its O is 0); if both are −∞ the row stays empty:
 * O = 0, lse = −∞, never NaN. Exact in real arithmetic, so merging the blocks
 * of a ring in any order gives the same attention (up to rounding).
 * Float64 inside, float32 out; the inputs are not modified.
 * @param a the partial so far: O (rows·d), lse (rows)
 * @param b the partial of a new block of keys, same shapes
 * @returns the merged partial (new arrays)
 * @throws RangeError `b.lse must have 3 rows like a.lse, got 2`; `a.O must have rows·d elements with the same d as b.O: 7 elements for 3 rows`
 * @example mergeAttentionPartials({O: Float32Array.of(4), lse: Float32Array.of(0)}, {O: Float32Array.of(8), lse: Float32Array.of(Math.log(3))})
 *   // {O: [7], lse: [1.3862944]} (weights 1/4 and 3/4; lse = ln 4)
 * @example mergeAttentionPartials({O: Float32Array.of(0), lse: Float32Array.of(-Infinity)}, {O: Float32Array.of(5), lse: Float32Array.of(2)})
 *   // {O: [5], lse: [2]} (the first part saw no key)
 * @see Liu et al. 2023, *Ring Attention*, §3 (blockwise attention combined across hosts); zhuzilin/ring-flash-attention
 *   `ring_flash_attn/utils.py` `_update_out_and_lse` (the same rule in sigmoid form), commit 8996282;
 *   Milakov & Gimelshein 2018 (the online softmax)
 */
export function mergeAttentionPartials(a: AttentionPartial, b: AttentionPartial): AttentionPartial {
  const rows = a.lse.length;
  if (b.lse.length !== rows) throw new RangeError(`b.lse must have ${rows} rows like a.lse, got ${b.lse.length}`);
  if (a.O.length !== b.O.length || (rows > 0 && a.O.length % rows !== 0)) {
    throw new RangeError(`a.O must have rows·d elements with the same d as b.O: ${a.O.length} and ${b.O.length} elements for ${rows} rows`);
  }
  const d = rows === 0 ? 0 : a.O.length / rows;
  const O = new Float32Array(rows * d);
  const lse = new Float32Array(rows);
  for (let i = 0; i < rows; i++) {
    const la = a.lse[i], lb = b.lse[i];
    const l = logsumexp([la, lb]); // −∞ only when both parts are empty
    lse[i] = l;
    if (l === -Infinity) continue; // O stays 0
    const wa = la === -Infinity ? 0 : Math.exp(la - l);
    const wb = lb === -Infinity ? 0 : Math.exp(lb - l);
    for (let x = 0; x < d; x++) O[i * d + x] = wa * a.O[i * d + x] + wb * b.O[i * d + x]; // (rows, d)
  }
  return { O, lse };
}
