import { ConfigFields, show } from "./configFields.js";
import { DENSE_LLAMA_STYLE, readLlamaStyle } from "./llamaStyle.js";
import { MOE_TYPES, readMoeConfig } from "./parseMoeConfig.js";
import type { ModelArch } from "./modelArch.js";
import { parameterCount } from "./parameterCount.js";

export type { ModelArch, ModelFamily, MoeArch, MlaArch } from "./modelArch.js";

/**
 * `model_type` values read as Llama-style decoders (gated MLP, RMSNorm, rotary
 * positions): the dense families of {@link DENSE_LLAMA_STYLE} and the
 * mixture-of-experts ones. Other types (e.g. "bert", "t5", "qwen3", "phimoe")
 * are rejected rather than counted wrongly.
 * @example LLAMA_STYLE_TYPES.includes("qwen2") // true
 * @see Hugging Face Transformers, each family's configuration_*.py
 */
export const LLAMA_STYLE_TYPES: readonly string[] = [...Object.keys(DENSE_LLAMA_STYLE), ...MOE_TYPES];

/**
 * Reads a Hugging Face `config.json` (already parsed, or as text) into a {@link ModelArch}.
 *
 * Families: GPT-2 (`model_type` "gpt2" or an `n_embd` field), GPT-NeoX
 * (`model_type` "gpt_neox"), the dense Llama-style llama, mistral, qwen2
 * (q/k/v biases), gemma, gemma2 (tied, `head_dim` given, four norms per block)
 * and phi3 (fused qkv and gate_up), and the mixture-of-experts mixtral,
 * qwen2_moe (shared expert) and deepseek_v3 (MLA, shared experts, first k
 * dense layers, MTP modules). A file without `model_type` is read as Llama.
 * Missing `num_key_value_heads` means no GQA; a missing field with a default
 * in its transformers config class takes that default (e.g. `tie_word_embeddings`:
 * true for GPT-2, Gemma and Gemma 2, false otherwise). The context length is
 * `max_position_embeddings` (GPT-2: `n_positions`), with `sliding_window` where the family uses it.
 *
 * @param config the object from `JSON.parse`, or the file's text
 * @returns the normalised architecture
 * @throws TypeError `config.json is not valid JSON: …`, or
 *   `config.json: field "hidden_size" is missing (…)`, or
 *   `config.json: field "n_head" must be a positive integer, got "12"`
 * @throws RangeError when heads do not divide the width or the KV heads, or
 *   `config.json: model_type "bert" is not supported; supported: gpt2, gpt_neox and the Llama-style llama, mistral, …`, or
 *   `config.json: 1000000 layers of hidden_size 65536 make 6.87e+16 parameters, beyond 2^53 …` (no byte count would be exact)
 * @example parseModelConfig({ model_type: "gpt2", vocab_size: 50257, n_embd: 768, n_layer: 12, n_head: 12, n_positions: 1024 }).numLayers // 12
 * @see https://huggingface.co/docs/transformers/main_classes/configuration
 */
export function parseModelConfig(config: unknown): ModelArch {
  const arch = readArch(config);
  const total = parameterCount(arch).total;
  if (!Number.isSafeInteger(total)) {
    throw new RangeError(`config.json: ${arch.numLayers} layers of hidden_size ${arch.hiddenSize} make ${total.toExponential(2)} parameters, beyond 2^53 (9.0e+15), where byte counts stop being exact integers: check num_hidden_layers, hidden_size and intermediate_size`);
  }
  return arch;
}

function readArch(config: unknown): ModelArch {
  let raw: unknown = config;
  if (typeof config === "string") {
    try {
      raw = JSON.parse(config);
    } catch (e) {
      throw new TypeError(`config.json is not valid JSON: ${(e as Error).message}`);
    }
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new TypeError(`config.json must be a JSON object, got ${show(raw)}`);
  }
  const c = raw as Record<string, unknown>;
  const modelType = typeof c.model_type === "string" ? c.model_type : "";
  if (modelType === "gpt2" || (modelType === "" && "n_embd" in c)) return gpt2(new ConfigFields(c, "GPT-2"), modelType || "gpt2");
  if (modelType === "gpt_neox") return gptNeox(new ConfigFields(c, "GPT-NeoX"), modelType);
  if (modelType !== "" && !LLAMA_STYLE_TYPES.includes(modelType)) {
    throw new RangeError(
      `config.json: model_type "${modelType}" is not supported; supported: gpt2, gpt_neox and the Llama-style ${LLAMA_STYLE_TYPES.join(", ")} (gated MLP, RMSNorm, rotary positions)`,
    );
  }
  const f = new ConfigFields(c, modelType ? `"${modelType}" (Llama-style)` : "Llama-style");
  if (MOE_TYPES.includes(modelType)) return readMoeConfig(f, modelType);
  return readLlamaStyle(f, modelType || "llama", DENSE_LLAMA_STYLE[modelType || "llama"]);
}

/** GPT-2: LayerNorm with bias, biases everywhere, a learned position table of n_positions rows, tied head (transformers GPT2Config defaults). */
function gpt2(f: ConfigFields, modelType: string): ModelArch {
  const vocabSize = f.int("vocab_size"), h = f.int("n_embd"), numLayers = f.int("n_layer"), numHeads = f.int("n_head"), positions = f.int("n_positions");
  const inner = f.intOrNull("n_inner"), tiedEmbeddings = f.bool("tie_word_embeddings", true);
  if (h % numHeads !== 0) throw new RangeError(`config.json: n_embd (${h}) must be divisible by n_head (${numHeads})`);
  return {
    family: "gpt2", modelType, vocabSize, hiddenSize: h, intermediateSize: inner ?? 4 * h, numLayers, numHeads, numKvHeads: numHeads,
    headDim: h / numHeads, learnedPositions: positions, tiedEmbeddings, attentionBias: true, mlpBias: true, norm: "layernorm", mlp: "plain",
    contextLength: positions, slidingWindow: null, decoderLayerClass: "GPT2Block",
  };
}

/** GPT-NeoX (Pythia): LayerNorm with bias, biases everywhere, rotary positions, untied head by default. */
function gptNeox(f: ConfigFields, modelType: string): ModelArch {
  const vocabSize = f.int("vocab_size"), h = f.int("hidden_size"), intermediateSize = f.int("intermediate_size");
  const numLayers = f.int("num_hidden_layers"), numHeads = f.int("num_attention_heads"), tiedEmbeddings = f.bool("tie_word_embeddings", false);
  if (h % numHeads !== 0) throw new RangeError(`config.json: hidden_size (${h}) must be divisible by num_attention_heads (${numHeads})`);
  return {
    family: "gpt_neox", modelType, vocabSize, hiddenSize: h, intermediateSize, numLayers, numHeads, numKvHeads: numHeads,
    headDim: h / numHeads, learnedPositions: 0, tiedEmbeddings, attentionBias: true, mlpBias: true, norm: "layernorm", mlp: "plain",
    contextLength: f.intOrNull("max_position_embeddings"), slidingWindow: null, decoderLayerClass: "GPTNeoXLayer",
  };
}
