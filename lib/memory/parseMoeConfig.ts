/**
 * Mixture-of-experts decoders read from their config.json: Mixtral,
 * Qwen2-MoE (Qwen1.5-MoE, Qwen2-57B-A14B) and DeepSeek-V3 (with multi-head
 * latent attention and multi-token prediction).
 */
import type { ConfigFields } from "./configFields.js";
import type { ModelArch } from "./modelArch.js";
import { readLlamaStyle } from "./llamaStyle.js";

/** The MoE `model_type`s the course reads. */
export const MOE_TYPES: readonly string[] = ["mixtral", "qwen2_moe", "deepseek_v3"];

function topK(f: ConfigFields, numExperts: number): number {
  const k = f.int("num_experts_per_tok");
  if (k > numExperts) throw new RangeError(`config.json: num_experts_per_tok (${k}) must be at most the number of experts (${numExperts})`);
  return k;
}

/**
 * Mixtral: every layer's MLP is `num_local_experts` SwiGLU experts of width
 * `intermediate_size`, a router Linear(h, E) without bias, top-`num_experts_per_tok`.
 * @see huggingface/transformers models/mixtral/modeling_mixtral.py (MixtralTopKRouter, MixtralExperts); Jiang et al. 2024, §2
 */
function mixtral(f: ConfigFields, modelType: string): ModelArch {
  const base = readLlamaStyle(f, modelType, { layer: "MixtralDecoderLayer", tied: false, window: "always" });
  const numExperts = f.int("num_local_experts");
  return { ...base, moe: { numExperts, topK: topK(f, numExperts), expertIntermediateSize: base.intermediateSize, sharedIntermediateSize: 0, sharedExpertGate: false, numMoeLayers: base.numLayers } };
}

/**
 * Qwen2-MoE: layer i is sparse unless listed in `mlp_only_layers`, when
 * `num_experts` > 0 and (i + 1) is a multiple of `decoder_sparse_step`; a
 * sparse layer has `num_experts` experts of `moe_intermediate_size`, a router
 * Linear(h, E), one shared expert of `shared_expert_intermediate_size` and its
 * sigmoid gate Linear(h, 1); dense layers keep an MLP of `intermediate_size`.
 * Q, K, V have biases (`qkv_bias`, default true), O has none.
 * @see huggingface/transformers models/qwen2_moe/modular_qwen2_moe.py (Qwen2MoeDecoderLayer, Qwen2MoeSparseMoeBlock, Qwen2MoeAttention) at 001f85b
 */
function qwen2Moe(f: ConfigFields, modelType: string): ModelArch {
  const base = readLlamaStyle(f, modelType, { layer: "Qwen2MoeDecoderLayer", tied: false, qkvBias: f.bool("qkv_bias", true), window: "use_sliding_window" });
  const numExperts = f.nonNegative("num_experts");
  const step = f.int("decoder_sparse_step", 1);
  const mlpOnly = new Set(f.intList("mlp_only_layers"));
  let numMoeLayers = 0;
  for (let i = 0; i < base.numLayers; i++) if (!mlpOnly.has(i) && numExperts > 0 && (i + 1) % step === 0) numMoeLayers++;
  const shared = f.nonNegative("shared_expert_intermediate_size", 0);
  return {
    ...base,
    moe: { numExperts, topK: numExperts > 0 ? topK(f, numExperts) : 0, expertIntermediateSize: f.int("moe_intermediate_size"), sharedIntermediateSize: shared, sharedExpertGate: shared > 0, numMoeLayers },
  };
}

/**
 * DeepSeek-V3: layers from `first_k_dense_replace` on (every `moe_layer_freq`-th)
 * are MoE with `n_routed_experts` experts of `moe_intermediate_size` and
 * `n_shared_experts` shared experts of the same width; the first ones keep a
 * dense MLP of `intermediate_size`. Attention is MLA (`q_lora_rank`,
 * `kv_lora_rank`, `qk_nope_head_dim`, `qk_rope_head_dim`, `v_head_dim`).
 * `num_nextn_predict_layers` multi-token-prediction modules are stored with
 * the weights and counted apart. The router's `e_score_correction_bias` is a
 * buffer in transformers (not a parameter: no gradient, no optimizer state).
 * @see deepseek-ai/DeepSeek-V3 inference/model.py and README_WEIGHTS.md; huggingface/transformers models/deepseek_v3/modeling_deepseek_v3.py
 */
function deepseekV3(f: ConfigFields, modelType: string): ModelArch {
  const base = readLlamaStyle(f, modelType, { layer: "DeepseekV3DecoderLayer", tied: false, window: "none" });
  const numExperts = f.int("n_routed_experts"), expertI = f.int("moe_intermediate_size");
  const firstDense = f.nonNegative("first_k_dense_replace", 0), freq = f.int("moe_layer_freq", 1);
  let numMoeLayers = 0;
  for (let i = 0; i < base.numLayers; i++) if (i >= firstDense && i % freq === 0) numMoeLayers++;
  const mla = {
    qLoraRank: f.has("q_lora_rank") ? f.int("q_lora_rank") : 0, kvLoraRank: f.int("kv_lora_rank"),
    qkNopeHeadDim: f.int("qk_nope_head_dim"), qkRopeHeadDim: f.int("qk_rope_head_dim"), vHeadDim: f.int("v_head_dim"),
  };
  return {
    ...base, numKvHeads: base.numHeads, headDim: mla.qkNopeHeadDim + mla.qkRopeHeadDim, mla, mtpModules: f.nonNegative("num_nextn_predict_layers", 0),
    moe: { numExperts, topK: topK(f, numExperts), expertIntermediateSize: expertI, sharedIntermediateSize: f.nonNegative("n_shared_experts", 0) * expertI, sharedExpertGate: false, numMoeLayers },
  };
}

/**
 * Reads an MoE config.json of one of {@link MOE_TYPES}.
 * @param f the file's fields
 * @param modelType "mixtral" | "qwen2_moe" | "deepseek_v3"
 * @returns the architecture with its `moe` part (and `mla`, `mtpModules` for DeepSeek-V3)
 * @throws TypeError naming a missing or ill-typed field; RangeError `config.json: num_experts_per_tok (9) must be at most the number of experts (8)`
 * @example readMoeConfig(fields, "mixtral").moe // { numExperts: 8, topK: 2, expertIntermediateSize: 14336, … }
 * @see the readers above, each with its source
 */
export function readMoeConfig(f: ConfigFields, modelType: string): ModelArch {
  if (modelType === "mixtral") return mixtral(f, modelType);
  if (modelType === "qwen2_moe") return qwen2Moe(f, modelType);
  return deepseekV3(f, modelType);
}
