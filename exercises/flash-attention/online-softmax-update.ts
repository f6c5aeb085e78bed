import { notImplemented } from "../harness/index.js";

/** Running state of one query row: max m, sum ℓ = Σ e^{s−m}, unnormalised output acc = Σ e^{s−m}·v. */
export interface OnlineSoftmaxState {
  m: number;
  l: number;
  acc: number[];
}

/**
 * Exercise 10.2 — the online softmax update.
 *
 * One query row meets its keys a block at a time. The state summarises every
 * score s seen so far (with its value row v, of length d) by the invariant
 *
 *   m = the largest score seen,  ℓ = Σ e^{s − m},  acc = Σ e^{s − m}·v
 *
 * (the sums over every score seen so far), so that acc/ℓ is the softmax-weighted
 * average of the values and m + log ℓ the logsumexp. Return the state that
 * satisfies the invariant after this block too, without the earlier scores
 * (they are gone): work out from the invariant how the old ℓ and acc must
 * change when m changes (the page's section "The online softmax and the
 * logsumexp" derives it).
 *
 * Contract:
 * - the empty state (no score seen) is {m: −Infinity, l: 0, acc: zeros(d)};
 * - a score of −Infinity is a masked key and contributes nothing; a block that
 *   is empty or fully masked returns the state unchanged (no NaN);
 * - scores of ±1e4 must work (exp(1e4) is Infinity in float64);
 * - blocks have any size, and their largest score can be anywhere in them;
 * - values.length must equal scores.length and every values[k] must have
 *   length d = state.acc.length, else throw a RangeError whose message names
 *   `values` (e.g. "values must have one row per score (2), got 1");
 * - return a new object; do not modify state, scores or values.
 * Tolerance: |received − expected| ≤ 1e-9 + 1e-9·|expected| for m, l and acc.
 * Source: Milakov & Gimelshein 2018, "Online normalizer calculation for softmax".
 *
 * @param state the running {m, l, acc}
 * @param scores this block's logits (−Infinity = masked)
 * @param values one row of length d per score
 * @returns the new state
 * @example onlineSoftmaxUpdate({m: 0, l: 1, acc: [2]}, [0], [[4]]) // {m: 0, l: 2, acc: [6]}
 */
export function onlineSoftmaxUpdate(state: OnlineSoftmaxState, scores: number[], values: number[][]): OnlineSoftmaxState {
  return notImplemented("10.2");
}
