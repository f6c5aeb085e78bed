import { checkT } from "./comm.js";

/** Megatron-LM's default `--make-vocab-size-divisible-by` (megatron/training/arguments.py). */
export const MAKE_VOCAB_SIZE_DIVISIBLE_BY = 128;

/**
 * Megatron's padded vocabulary: the smallest multiple of
 * `makeVocabSizeDivisibleBy · T` that is ≥ vocabSize, so that every rank of the
 * vocabulary-parallel embedding and output layer holds the same number of rows
 * (and that number is a multiple of 128 for fast kernels).
 * @param vocabSize the tokenizer's vocabulary
 * @param T tensor-parallel size
 * @param makeVocabSizeDivisibleBy default 128 (Megatron's default)
 * @returns the padded size
 * @throws RangeError `vocabSize must be an integer >= 1, got 0`; `T must be an integer >= 1, got 0`; `makeVocabSizeDivisibleBy must be an integer >= 1, got 0`
 * @example paddedVocabSize(32000, 4) // 32256 (Llama-2: multiple of 512)
 * @example paddedVocabSize(50257, 1) // 50304 (GPT-2)
 * @see Megatron-LM megatron/training/vocab_utils.py (multiple = make_vocab_size_divisible_by × tensor_model_parallel_size; ceil to a multiple)
 */
export function paddedVocabSize(vocabSize: number, T: number, makeVocabSizeDivisibleBy = MAKE_VOCAB_SIZE_DIVISIBLE_BY): number {
  if (!Number.isInteger(vocabSize) || vocabSize < 1) throw new RangeError(`vocabSize must be an integer >= 1, got ${vocabSize}`);
  checkT(T);
  if (!Number.isInteger(makeVocabSizeDivisibleBy) || makeVocabSizeDivisibleBy < 1) throw new RangeError(`makeVocabSizeDivisibleBy must be an integer >= 1, got ${makeVocabSizeDivisibleBy}`);
  const multiple = makeVocabSizeDivisibleBy * T;
  return Math.ceil(vocabSize / multiple) * multiple;
}

/**
 * The sizes of a transformer that tensor parallelism splits.
 * @see {@link checkTensorParallelSize}
 */
export interface TpModelConfig {
  /** a, query heads. */
  numHeads: number;
  /** KV heads (grouped-query attention; Megatron `num_query_groups`); default numHeads. */
  numKvHeads?: number;
  /** h, hidden size. */
  hiddenSize: number;
  /** FFN inner size (Llama `intermediate_size`). */
  ffnHiddenSize: number;
}

/**
 * Throws unless T can split this model: T divides the query heads, the hidden
 * size and the FFN size, and the KV heads are a multiple or a divisor of T
 * (when T exceeds the KV heads Megatron replicates each KV head on T/G ranks).
 * The vocabulary is padded, not checked ({@link paddedVocabSize}).
 * @param config see {@link TpModelConfig}
 * @param T tensor-parallel size
 * @throws RangeError naming the field and the allowed values: `numHeads (40) must be divisible by T (16); valid T for this config: 1, 2, 4, 8`;
 *   `numKvHeads (8) must be a multiple or a divisor of T (3)`; `hiddenSize (…) must be divisible by T (…)`;
 *   `ffnHiddenSize (11008) must be divisible by T (…)`; `T must be an integer >= 1, got 0`
 * @example checkTensorParallelSize({ numHeads: 32, numKvHeads: 8, hiddenSize: 4096, ffnHiddenSize: 14336 }, 8) // passes (Mistral-7B)
 * @see Megatron-LM megatron/core/transformer/transformer_config.py (num_attention_heads and num_query_groups checks); megatron/core/utils.py `divide` (ffn_hidden_size per partition)
 */
export function checkTensorParallelSize(config: TpModelConfig, T: number): void {
  checkT(T);
  const G = config.numKvHeads ?? config.numHeads;
  for (const [k, v] of [["numHeads", config.numHeads], ["numKvHeads", G], ["hiddenSize", config.hiddenSize], ["ffnHiddenSize", config.ffnHiddenSize]] as const) {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`${k} must be an integer >= 1, got ${v}`);
  }
  const fits = (t: number) => config.numHeads % t === 0 && (G % t === 0 || t % G === 0) && config.hiddenSize % t === 0 && config.ffnHiddenSize % t === 0;
  // The allowed values, for the message: every valid T up to the number of heads.
  const allowed = () => `; valid T for this config: ${Array.from({ length: config.numHeads }, (_, i) => i + 1).filter(fits).join(", ")}`;
  if (config.numHeads % T !== 0) throw new RangeError(`numHeads (${config.numHeads}) must be divisible by T (${T})${allowed()}`);
  if (G % T !== 0 && T % G !== 0) throw new RangeError(`numKvHeads (${G}) must be a multiple or a divisor of T (${T})${allowed()}`);
  if (config.hiddenSize % T !== 0) throw new RangeError(`hiddenSize (${config.hiddenSize}) must be divisible by T (${T})${allowed()}`);
  if (config.ffnHiddenSize % T !== 0) throw new RangeError(`ffnHiddenSize (${config.ffnHiddenSize}) must be divisible by T (${T})${allowed()}`);
}

/**
 * Every T in 1 … maxT that {@link checkTensorParallelSize} accepts, ascending.
 * @param config see {@link TpModelConfig}
 * @param maxT largest T to try (default numHeads)
 * @returns the valid T
 * @throws RangeError from {@link checkTensorParallelSize} for a bad field (e.g. `numHeads must be an integer >= 1, got 0`)
 * @example validTensorParallelSizes({ numHeads: 40, hiddenSize: 5120, ffnHiddenSize: 13824 }) // [1, 2, 4, 8] (Llama-2-13B)
 * @see Megatron-LM megatron/core/transformer/transformer_config.py
 */
export function validTensorParallelSizes(config: TpModelConfig, maxT = config.numHeads): number[] {
  checkTensorParallelSize(config, 1);
  if (!Number.isInteger(maxT) || maxT < 1) throw new RangeError(`maxT must be an integer >= 1, got ${maxT}`);
  const out: number[] = [];
  for (let T = 1; T <= maxT; T++) {
    try { checkTensorParallelSize(config, T); out.push(T); } catch { /* not valid */ }
  }
  return out;
}
