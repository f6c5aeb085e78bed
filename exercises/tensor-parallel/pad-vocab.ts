import { notImplemented } from "../harness/index.js";

/**
 * Exercise 6.4 — Megatron's padded vocabulary size.
 *
 * The vocabulary-parallel embedding and output layer give each of the T
 * ranks the same number of rows. Megatron-LM pads the tokenizer's vocabulary
 * up to the nearest multiple of `makeVocabSizeDivisibleBy × T`
 * (`--make-vocab-size-divisible-by`, default 128); the padding rows are never
 * a target. Return the padded size.
 * Errors (RangeError, naming the field): `vocabSize must be an integer >= 1, got 0`,
 * `T must be an integer >= 1, got 0`, `makeVocabSizeDivisibleBy must be an integer >= 1, got 0`.
 * Source: Megatron-LM megatron/training (vocab_utils.py).
 * Read: the chapter's section "Which T fit a model".
 *
 * @param vocabSize the tokenizer's vocabulary
 * @param T tensor-parallel size
 * @param makeVocabSizeDivisibleBy default 128
 * @returns the padded vocabulary
 * @example paddedVocab(50257, 1) // 50304 (GPT-2's vocabulary, 393 × 128)
 */
export function paddedVocab(vocabSize: number, T: number, makeVocabSizeDivisibleBy?: number): number {
  return notImplemented("6.4");
}
