import { notImplemented } from "../harness/index.js";

/**
 * Exercise 10.2 — a logsumexp that survives extreme logits.
 *
 * Return log Σᵢ exp(xᵢ). The naive formula fails at the logits attention
 * produces: exp(1e4) is Infinity, exp(−1e4) is 0. Compute it as
 * m + log Σᵢ exp(xᵢ − m) with m = max xᵢ.
 *
 * Conventions (FlashAttention's saved statistic for a row):
 * - an empty list, or one whose entries are all −Infinity (every key masked),
 *   gives −Infinity (the log of an empty sum) — not NaN;
 * - any +Infinity gives +Infinity; any NaN gives NaN;
 * - do not modify the input.
 * Tolerance: 1e-12 + 1e-12·|expected|.
 * Read: the chapter's "logsumexp" section.
 *
 * @param xs logits
 * @returns log Σ exp(xs)
 * @example logsumexp([1e4, 1e4]) // 10000.69314718056
 */
export function logsumexp(xs: number[]): number {
  return notImplemented("10.2");
}
