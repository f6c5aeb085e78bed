import { notImplemented } from "../harness/index.js";

/** One micro-batch as a trainer sees it. */
export interface MicroBatchGradient {
  /** ∂(mean loss over this micro-batch's tokens)/∂θ: P numbers (NaN when numTokens = 0, as PyTorch's mean over nothing). */
  meanGrad: number[];
  /** Tokens (non-padding targets) in the micro-batch: an integer >= 0. */
  numTokens: number;
}

/**
 * Exercise 3.1 — combine K micro-batch gradients into the gradient of the whole window.
 *
 * Each micro-batch reports the gradient of ITS OWN mean loss and how many
 * tokens it had. Return the gradient of the mean loss over every token of
 * the window — what one big batch of the same samples would give:
 *
 *   g = Σ_i n_i · ḡ_i / Σ_i n_i
 *
 * NOT the mean of the K means (the notes' `loss / accumulation_steps`), which
 * is only equal when every n_i is the same (the 2024 gradient-accumulation bug).
 *
 * Edge cases: a micro-batch with numTokens = 0 (all padding) contributes
 * nothing (its meanGrad is NaN — do not let it poison the sum); if the whole
 * window has no tokens, throw a RangeError whose message mentions "tokens".
 * Do not modify the input.
 * Read: the chapter's "Normalise by the window's tokens" section; Hugging Face,
 * "Fixing Gradient Accumulation" (Oct 2024).
 *
 * @param micro K >= 1 micro-batches, each meanGrad of the same length P
 * @returns the window gradient, P numbers
 * @example accumulateMicroBatches([{ meanGrad: [1], numTokens: 1 }, { meanGrad: [4], numTokens: 3 }]) // [3.25]
 */
export function accumulateMicroBatches(micro: MicroBatchGradient[]): number[] {
  return notImplemented("3.1");
}
