import { notImplemented } from "../harness/index.js";

/**
 * Exercise 6.4 — which T was this checkpoint saved with?
 *
 * What: a Megatron-LM checkpoint's embedding has `paddedRows` rows for a
 * tokenizer of `vocabSize` tokens, because Megatron pads the vocabulary
 * (the page's "Which T fit a model"). Return every tensor-parallel size T
 * that pads `vocabSize` to exactly `paddedRows`: the checkpoint could have
 * been written with any of them.
 * Input: `vocabSize`, `paddedRows`, `makeVocabSizeDivisibleBy` (default 128,
 * Megatron's `--make-vocab-size-divisible-by`): integers >= 1.
 * Output: a new array of T, ascending (T >= 1, every T that fits, however
 * large); [] when none does.
 * Convention: Megatron-LM `megatron/training/vocab_utils.py`: the padded
 * vocabulary is the smallest multiple of makeVocabSizeDivisibleBy × T at or
 * above vocabSize.
 * Errors (RangeError, message naming the field): `vocabSize must be an
 * integer >= 1, got 0`, the same for paddedRows and makeVocabSizeDivisibleBy.
 * Example: tpSizesForPaddedVocab(32000, 32256) starts [3, 4, 6, 7, …].
 *
 * @param vocabSize the tokenizer's vocabulary
 * @param paddedRows the rows of the whole embedding in the checkpoint
 * @param makeVocabSizeDivisibleBy Megatron's multiple per rank (default 128)
 * @returns every T that gives paddedRows, ascending
 * @throws {RangeError} on a size that is not a positive integer
 */
export function tpSizesForPaddedVocab(vocabSize: number, paddedRows: number, makeVocabSizeDivisibleBy?: number): number[] {
  return notImplemented("6.4");
}
