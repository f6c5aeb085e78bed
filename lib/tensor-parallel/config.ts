import type { ModelArch } from "../memory/parseModelConfig.js";
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
  /** G, KV heads (grouped-query attention; Megatron `num_query_groups`); default numHeads. */
  numKvHeads?: number;
  /** h, hidden size. */
  hiddenSize: number;
  /** FFN inner size (Llama `intermediate_size`). */
  ffnHiddenSize: number;
  /** d_h, width of one head (Megatron `kv_channels`, HF `head_dim`); default hiddenSize / numHeads. */
  headDim?: number;
}

/**
 * Which Megatron-LM rule for the KV heads against T:
 * - `"sub-shard"` (default): Megatron Core 0.16.0 and later, since commit f7dfb99 (2025-12-06, PR #2565):
 *   G a multiple or a divisor of T; when T > G the fused QKV weight is still split 1/T and the
 *   QKV activation is all-gathered so that each rank slices its group's heads;
 * - `"divide"`: Megatron Core 0.15.x and earlier: G must be a multiple of T (T ≤ G).
 * @see Megatron-LM megatron/core/transformer/transformer_config.py at f7dfb99^ (8a5f379) and at f7dfb99
 */
export type GqaRule = "sub-shard" | "divide";

/** The Megatron-LM release each {@link GqaRule} follows, for messages and pages. */
export const GQA_RULE_VERSION: Readonly<Record<GqaRule, string>> = Object.freeze({
  "sub-shard": "Megatron Core ≥ 0.16, commit f7dfb99",
  divide: "Megatron Core ≤ 0.15, before commit f7dfb99",
});

/** Options of {@link checkTensorParallelSize} and {@link validTensorParallelSizes}. */
export interface TpRuleOptions {
  /** Default "sub-shard" (current Megatron-LM). */
  gqaRule?: GqaRule;
}

/** The reason T cannot split this (checked) config, or null. */
function misfit(c: Required<TpModelConfig>, T: number, rule: GqaRule): string | null {
  const { numHeads: a, numKvHeads: G, headDim: d } = c;
  if (a % T !== 0) return `numHeads (${a}) must be divisible by T (${T})`;
  if (rule === "divide" && G % T !== 0) return `numKvHeads (${G}) must be divisible by T (${T}) (${GQA_RULE_VERSION.divide})`;
  if (G % T !== 0 && T % G !== 0) return `numKvHeads (${G}) must be a multiple or a divisor of T (${T}) (${GQA_RULE_VERSION["sub-shard"]})`;
  if (G < T && ((a + 2 * G) * d) % T !== 0) return `the fused QKV width (numHeads + 2·numKvHeads)·headDim = ${(a + 2 * G) * d} must be divisible by T (${T}) when T > numKvHeads`;
  if (c.ffnHiddenSize % T !== 0) return `ffnHiddenSize (${c.ffnHiddenSize}) must be divisible by T (${T})`;
  return null;
}

function checkedConfig(config: TpModelConfig): Required<TpModelConfig> {
  const G = config.numKvHeads ?? config.numHeads;
  for (const [k, v] of [["numHeads", config.numHeads], ["numKvHeads", G], ["hiddenSize", config.hiddenSize], ["ffnHiddenSize", config.ffnHiddenSize]] as const) {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`${k} must be an integer >= 1, got ${v}`);
  }
  if (config.numHeads % G !== 0) throw new RangeError(`numKvHeads (${G}) must divide numHeads (${config.numHeads})`);
  const d = config.headDim ?? config.hiddenSize / config.numHeads;
  if (config.headDim === undefined && !Number.isInteger(d)) throw new RangeError(`hiddenSize (${config.hiddenSize}) must be a multiple of numHeads (${config.numHeads}) when headDim is not given`);
  if (!Number.isInteger(d) || d < 1) throw new RangeError(`headDim must be an integer >= 1, got ${d}`);
  return { numHeads: config.numHeads, numKvHeads: G, hiddenSize: config.hiddenSize, ffnHiddenSize: config.ffnHiddenSize, headDim: d };
}

function gqaRuleOf(o: TpRuleOptions): GqaRule {
  const rule = o.gqaRule ?? "sub-shard";
  if (rule !== "sub-shard" && rule !== "divide") throw new RangeError(`gqaRule must be "sub-shard" or "divide", got ${JSON.stringify(rule)}`);
  return rule;
}

/**
 * The course's one rule for a valid tensor-parallel size T, as Megatron-LM checks it. Throws
 * unless T divides the query heads (`transformer_config.py`) and the FFN size (`divide` in
 * the MLP's column-parallel layer), and the KV heads G fit T by `options.gqaRule`:
 * G a multiple or a divisor of T (default, current Megatron), or a multiple of T (before
 * f7dfb99). When T > G, Megatron splits the fused QKV weight, of width (a + 2G)·d_h, into
 * T equal column blocks, so that width must divide by T too. The hidden size is not split
 * (1D tensor parallelism splits the heads and the FFN, never h), and the vocabulary is
 * padded, not checked ({@link paddedVocabSize}). The estimator (lib/memory), the planner
 * (lib/plan) and this chapter's layers all call it.
 * @param config see {@link TpModelConfig}
 * @param T tensor-parallel size
 * @param options see {@link TpRuleOptions}
 * @throws RangeError naming the field, the rule's version and the valid T: `numHeads (40) must be divisible by T (16); valid T for this config: 1, 2, 4, 8`;
 *   `numKvHeads (4) must be a multiple or a divisor of T (7) (Megatron Core ≥ 0.16, commit f7dfb99); valid T for this config: 1, 2, 4, 8, 16`;
 *   `numKvHeads (8) must be divisible by T (16) (Megatron Core ≤ 0.15, before commit f7dfb99); …`; `ffnHiddenSize (11008) must be divisible by T (…)`;
 *   `T must be an integer >= 1, got 0`; `numKvHeads (3) must divide numHeads (8)`; `gqaRule must be "sub-shard" or "divide", got "x"`
 * @example checkTensorParallelSize({ numHeads: 32, numKvHeads: 8, hiddenSize: 4096, ffnHiddenSize: 14336 }, 16) // passes (Mistral-7B: 2 ranks per KV head)
 * @example checkTensorParallelSize({ numHeads: 32, numKvHeads: 8, hiddenSize: 4096, ffnHiddenSize: 14336 }, 16, { gqaRule: "divide" }) // throws (Megatron Core ≤ 0.15)
 * @see Megatron-LM megatron/core/transformer/transformer_config.py (`num_attention_heads`, `num_query_groups` checks) and
 *   megatron/core/transformer/attention.py (`num_query_groups < world_size`: all-gather of the QKV activation) at d98e8a6; the rule changed in f7dfb99 (PR #2565)
 */
export function checkTensorParallelSize(config: TpModelConfig, T: number, options: TpRuleOptions = {}): void {
  checkT(T);
  const c = checkedConfig(config), rule = gqaRuleOf(options);
  const why = misfit(c, T, rule);
  if (why === null) return;
  const valid = Array.from({ length: c.numHeads }, (_, i) => i + 1).filter((t) => misfit(c, t, rule) === null);
  throw new RangeError(`${why}; valid T for this config: ${valid.join(", ")}`);
}

/**
 * Every T in 1 … maxT that {@link checkTensorParallelSize} accepts, ascending.
 * @param config see {@link TpModelConfig}
 * @param maxT largest T to try (default numHeads)
 * @param options see {@link TpRuleOptions}
 * @returns the valid T
 * @throws RangeError from {@link checkTensorParallelSize} for a bad field (e.g. `numHeads must be an integer >= 1, got 0`); `maxT must be an integer >= 1, got 0`
 * @example validTensorParallelSizes({ numHeads: 40, hiddenSize: 5120, ffnHiddenSize: 13824 }) // [1, 2, 4, 8] (Llama-2-13B)
 * @example validTensorParallelSizes({ numHeads: 64, numKvHeads: 8, hiddenSize: 8192, ffnHiddenSize: 28672 }, 64, { gqaRule: "divide" }) // [1, 2, 4, 8] (Llama-2-70B before f7dfb99)
 * @see Megatron-LM megatron/core/transformer/transformer_config.py at d98e8a6
 */
export function validTensorParallelSizes(config: TpModelConfig, maxT = config.numHeads, options: TpRuleOptions = {}): number[] {
  const c = checkedConfig(config), rule = gqaRuleOf(options);
  if (!Number.isInteger(maxT) || maxT < 1) throw new RangeError(`maxT must be an integer >= 1, got ${maxT}`);
  return Array.from({ length: maxT }, (_, i) => i + 1).filter((T) => misfit(c, T, rule) === null);
}

/**
 * The sizes {@link checkTensorParallelSize} needs, read from a parsed config.json.
 * @param arch lib/memory's ModelArch (numHeads, numKvHeads, hiddenSize, intermediateSize, headDim)
 * @returns a new {@link TpModelConfig}
 * @example tpModelConfig(llama2_70b) // { numHeads: 64, numKvHeads: 8, hiddenSize: 8192, ffnHiddenSize: 28672, headDim: 128 }
 * @see {@link checkTensorParallelSize}
 */
export function tpModelConfig(arch: Pick<ModelArch, "numHeads" | "numKvHeads" | "hiddenSize" | "intermediateSize" | "headDim">): TpModelConfig {
  return { numHeads: arch.numHeads, numKvHeads: arch.numKvHeads, hiddenSize: arch.hiddenSize, ffnHiddenSize: arch.intermediateSize, headDim: arch.headDim };
}
