import { notImplemented } from "../harness/index.js";

/**
 * Exercise 11.1 — the Gauss-Newton-Bartlett (GNB) estimate for one shared softmax.
 *
 * The parameters are one logit vector z; every one of B positions predicts p = softmax(z),
 * and the labels ŷ_1 … ŷ_B were sampled from p itself (not the data's labels). Return the
 * GNB estimate of diag(H) as Sophia defines it: B times the elementwise square of ĝ, the
 * gradient of the MEAN cross-entropy over the B positions on the sampled labels.
 *
 * Errors (RangeError, message naming the field): no label (`labels`); a label that is not an
 * integer in [0, V) (`labels[b]`); probabilities that are negative or do not sum to 1 within
 * 1e-6 (`probs`).
 * Source: Liu et al. 2023, Sophia, Algorithm 2; the chapter's section "Two estimators of the curvature".
 *
 * @param probs p, V numbers >= 0 summing to 1
 * @param labels B >= 1 sampled labels, integers in [0, V)
 * @returns a new array of V numbers (>= 0)
 * @example gnbEstimate([0.5, 0.5], [0]) // [0.25, 0.25]
 * @example gnbEstimate([0.2, 0.8], [1, 1]) // [0.08, 0.08] (up to rounding)
 */
export function gnbEstimate(probs: number[], labels: number[]): number[] {
  return notImplemented("11.1");
}
