/**
 * Llama-style decoders (gated MLP, RMSNorm, rotary positions) read from their
 * config.json, with each family's defaults as its transformers config class
 * sets them.
 */
import type { ConfigFields } from "./configFields.js";
import type { ModelArch } from "./modelArch.js";

/** What differs between Llama-style families in config.json and in the block. */
export interface LlamaStyleDefaults {
  /** The Hugging Face decoder-layer class. */
  layer: string;
  /** `tie_word_embeddings` when the file does not set it (the config class's default). */
  tied: boolean;
  /** `head_dim` when the file does not set it (Gemma: 256); otherwise h/a. */
  headDim?: number;
  /** Norms per block (Gemma 2: 4). */
  normsPerLayer?: number;
  /** Q, K, V carry biases and O does not (Qwen2). */
  qkvBias?: boolean;
  /** When `sliding_window` applies: always (Mistral, Phi-3, Gemma 2), only with `use_sliding_window` (Qwen2), or never read. */
  window: "always" | "use_sliding_window" | "none";
}

/**
 * The dense Llama-style `model_type`s the course reads, with their defaults.
 * Sources (each family's configuration_*.py and modeling_*.py in Hugging Face transformers):
 * Llama and Mistral untied; Qwen2 untied with biases on q/k/v only (Qwen2Attention) and a
 * window only with `use_sliding_window`; Gemma tied, head_dim 256; Gemma 2 tied, head_dim 256,
 * four RMSNorms per block (input, post-attention, pre- and post-feedforward), a window on
 * alternate layers; Phi-3 untied, Q/K/V fused in one `qkv_proj` and gate/up in one
 * `gate_up_proj` (the same parameter count as separate matrices).
 * @example DENSE_LLAMA_STYLE.gemma.tied // true
 * @see huggingface/transformers src/transformers/models/{llama,mistral,qwen2,gemma,gemma2,phi3}/configuration_*.py
 */
export const DENSE_LLAMA_STYLE: Readonly<Record<string, LlamaStyleDefaults>> = {
  llama: { layer: "LlamaDecoderLayer", tied: false, window: "none" },
  mistral: { layer: "MistralDecoderLayer", tied: false, window: "always" },
  qwen2: { layer: "Qwen2DecoderLayer", tied: false, qkvBias: true, window: "use_sliding_window" },
  gemma: { layer: "GemmaDecoderLayer", tied: true, headDim: 256, window: "none" },
  gemma2: { layer: "Gemma2DecoderLayer", tied: true, headDim: 256, normsPerLayer: 4, window: "always" },
  phi3: { layer: "Phi3DecoderLayer", tied: false, window: "always" },
};

/**
 * Reads the fields every Llama-style family shares: vocabulary, width,
 * MLP width, layers, heads and KV heads, head size, tying, biases, norms and
 * the context length. Missing `num_key_value_heads` means no GQA.
 * @param f the file's fields
 * @param modelType `model_type` as written
 * @param d the family's defaults
 * @param needsIntermediate false for a model whose every MLP is experts with their own width field
 * @returns the dense architecture (the MoE readers add their part)
 * @throws TypeError naming a missing or ill-typed field; RangeError when heads do not divide the width or the KV heads
 * @example readLlamaStyle(fields, "qwen2", DENSE_LLAMA_STYLE.qwen2).qkvBias // true
 * @see Hugging Face LlamaConfig docs (the shared fields)
 */
export function readLlamaStyle(f: ConfigFields, modelType: string, d: LlamaStyleDefaults, needsIntermediate = true): ModelArch {
  const vocabSize = f.int("vocab_size"), hiddenSize = f.int("hidden_size");
  const intermediateSize = needsIntermediate ? f.int("intermediate_size") : f.nonNegative("intermediate_size", 0);
  const numLayers = f.int("num_hidden_layers"), numHeads = f.int("num_attention_heads");
  const numKvHeads = f.int("num_key_value_heads", numHeads);
  const headDimGiven = f.intOrNull("head_dim");
  const tiedEmbeddings = f.bool("tie_word_embeddings", d.tied);
  const attentionBias = f.bool("attention_bias", false), mlpBias = f.bool("mlp_bias", false);
  const headDim = headDimGiven ?? d.headDim ?? hiddenSize / numHeads;
  if (headDimGiven === null && d.headDim === undefined && hiddenSize % numHeads !== 0) {
    throw new RangeError(`config.json: hidden_size (${hiddenSize}) must be divisible by num_attention_heads (${numHeads})`);
  }
  if (numHeads % numKvHeads !== 0) {
    throw new RangeError(`config.json: num_attention_heads (${numHeads}) must be a multiple of num_key_value_heads (${numKvHeads})`);
  }
  const window = d.window === "always" || (d.window === "use_sliding_window" && f.bool("use_sliding_window", false)) ? f.intOrNull("sliding_window") : null;
  return {
    family: "llama", modelType, vocabSize, hiddenSize, intermediateSize, numLayers, numHeads, numKvHeads, headDim,
    learnedPositions: 0, tiedEmbeddings, attentionBias, mlpBias, norm: "rmsnorm", mlp: "gated",
    ...(d.qkvBias ? { qkvBias: true } : {}), ...(d.normsPerLayer ? { normsPerLayer: d.normsPerLayer } : {}),
    contextLength: f.intOrNull("max_position_embeddings"), slidingWindow: window, decoderLayerClass: d.layer,
  };
}
