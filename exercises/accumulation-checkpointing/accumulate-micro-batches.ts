import { notImplemented } from "../harness/index.js";

/** One micro-batch as a trainer sees it after its backward. */
export interface MicroBatchGradient {
  /** ∂(mean loss over this micro-batch's tokens)/∂θ: P numbers (NaN when numTokens = 0, as PyTorch's mean over nothing). */
  meanGrad: number[];
  /** Tokens (targets other than the ignore index −100) in the micro-batch: an integer >= 0. */
  numTokens: number;
}

/**
 * Exercise 3.1 — the gradient of an accumulation window.
 *
 * What: a window of K micro-batches is one optimizer step. Each micro-batch
 * reports the gradient of ITS OWN mean loss (PyTorch's default
 * `reduction="mean"`, over its non-padding tokens) and its token count. Return
 * the gradient that ONE backward over all the window's samples together would
 * give, i.e. of the mean loss over every token of the window. Deriving it from
 * the per-micro-batch means is the point of the exercise: see the chapter's
 * section "Gradient accumulation" (and why the notes' `loss / accumulation_steps`
 * is not it).
 *
 * Shapes and units: K >= 1 micro-batches, every meanGrad of the same length P;
 * returns a new array of P numbers (nats per token per unit of θ, like the inputs).
 * Edge cases: a micro-batch with numTokens = 0 is all padding; its meanGrad
 * holds no information (NaN, or anything) and must not affect the result.
 * Errors (all RangeError; the message must contain the quoted word):
 * - no micro-batch at all: "micro-batch";
 * - a numTokens that is not an integer >= 0: "numTokens";
 * - a meanGrad whose length differs from the first one's: "meanGrad";
 * - a window whose micro-batches hold no token at all: "tokens".
 * Do not modify the input. Tolerance: 1e-12, absolute and relative.
 * Convention and source: Hugging Face, "Fixing Gradient Accumulation" (2024-10-16).
 *
 * @param micro the window's micro-batches
 * @returns the window's gradient, P numbers
 * @throws {RangeError} as listed above
 * @example accumulateMicroBatches([{ meanGrad: [1], numTokens: 1 }, { meanGrad: [4], numTokens: 3 }]) // [3.25]
 */
export function accumulateMicroBatches(micro: MicroBatchGradient[]): number[] {
  return notImplemented("3.1");
}
