import { notImplemented } from "../harness/index.js";

/**
 * Exercise 10.1 — a logsumexp that survives the logits attention produces.
 *
 * Return log Σᵢ exp(xᵢ) for a row of logits, accurate to the tolerance for
 * logits anywhere in float64's range: rows of ±1e4 occur in attention and must
 * give a finite, correct result (the page's section on the online softmax
 * shows why the formula as written cannot be evaluated directly).
 *
 * Conventions (FlashAttention saves this statistic per row for the backward pass):
 * - an empty row, or one whose entries are all −Infinity (every key masked),
 *   gives −Infinity, the log of an empty sum; never NaN;
 * - a NaN anywhere gives NaN (even next to +Infinity); otherwise a +Infinity
 *   anywhere gives +Infinity;
 * - the order of the entries does not matter; do not modify the input.
 * Tolerance: |received − expected| ≤ 1e-12 + 1e-12·|expected|.
 * Read: the chapter's section "The online softmax and the logsumexp".
 *
 * @param xs logits (any length, any order)
 * @returns log Σ exp(xs)
 * @example logsumexp([1e4, 1e4]) // 10000.69314718056 (= 1e4 + ln 2)
 */
export function logsumexp(xs: number[]): number {
  return notImplemented("10.1");
}
