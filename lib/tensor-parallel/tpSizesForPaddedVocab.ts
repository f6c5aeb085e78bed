/**
 * The inverse of Megatron's vocabulary padding: the tensor-parallel sizes a
 * checkpoint could have been saved with, read from its embedding's rows.
 */
import { paddedVocabSize } from "./config.js";

/**
 * Every T whose padding of `vocabSize` gives `paddedRows` rows (the smallest multiple of
 * makeVocabSizeDivisibleBy·T at or above vocabSize), ascending: T·m divides paddedRows and
 * paddedRows − T·m < vocabSize ≤ paddedRows. Several T can give the same rows (GPT-2's 50,257
 * pads to 50,304 at T = 1, 3, 131 and 393).
 * @param vocabSize the tokenizer's vocabulary, an integer >= 1
 * @param paddedRows the rows of the checkpoint's (whole) embedding, an integer >= 1
 * @param makeVocabSizeDivisibleBy m, default 128 (Megatron's default)
 * @returns the T in 1 … paddedRows/m, ascending; [] when none
 * @throws {RangeError} `vocabSize must be an integer >= 1, got 0` (also paddedRows, makeVocabSizeDivisibleBy)
 * @example tpSizesForPaddedVocab(50257, 50304) // [1, 3, 131, 393]
 * @example tpSizesForPaddedVocab(32000, 32768) // [8, 16, 32, 64, 128, 256]
 * @see Megatron-LM megatron/training/vocab_utils.py (`_vocab_size_with_padding`)
 */
export function tpSizesForPaddedVocab(vocabSize: number, paddedRows: number, makeVocabSizeDivisibleBy = 128): number[] {
  for (const [k, v] of [["vocabSize", vocabSize], ["paddedRows", paddedRows], ["makeVocabSizeDivisibleBy", makeVocabSizeDivisibleBy]] as const) {
    if (!Number.isSafeInteger(v) || v < 1) throw new RangeError(`${k} must be an integer >= 1, got ${v}`);
  }
  const out: number[] = [];
  for (let T = 1; T * makeVocabSizeDivisibleBy <= paddedRows; T++) {
    if (paddedRows % (T * makeVocabSizeDivisibleBy) === 0 && paddedVocabSize(vocabSize, T, makeVocabSizeDivisibleBy) === paddedRows) out.push(T);
  }
  return out;
}
