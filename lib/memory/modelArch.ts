/**
 * The architecture types that a Hugging Face `config.json` is read into
 * (lib/memory/parseModelConfig.ts) and that the parameter count, the
 * activation formulas and the planner consume. Plain data: JSON-serialisable,
 * so a page can receive it from a build-time data loader.
 */

/**
 * Architecture family, by how its config.json names fields and builds a block.
 * "llama" covers every Llama-style decoder (gated MLP, RMSNorm, rotary positions):
 * Llama, Mistral, Qwen2, Gemma, Gemma 2, Phi-3, Mixtral, Qwen2-MoE, DeepSeek-V3.
 * @see the sources of {@link ModelArch}: https://huggingface.co/docs/transformers/main_classes/configuration
 */
export type ModelFamily = "llama" | "gpt2" | "gpt_neox";

/**
 * The mixture-of-experts part of a model: which layers replace their MLP by
 * routed experts, how many experts each token uses, and the shared experts.
 * @see Jiang et al. 2024, *Mixtral of Experts*, §2; Qwen team, *Qwen1.5-MoE* (shared experts);
 *   DeepSeek-AI 2024, *DeepSeek-V3 Technical Report*, §2.1.2 (DeepSeekMoE)
 */
export interface MoeArch {
  /** Routed experts in each MoE layer (Mixtral `num_local_experts`, Qwen2-MoE `num_experts`, DeepSeek `n_routed_experts`). */
  numExperts: number;
  /** Routed experts each token goes through (`num_experts_per_tok`). */
  topK: number;
  /** Width of one routed expert's gated MLP (`moe_intermediate_size`; Mixtral: `intermediate_size`). */
  expertIntermediateSize: number;
  /** Width of the shared experts together, seen by every token (Qwen2-MoE `shared_expert_intermediate_size`, DeepSeek `n_shared_experts × moe_intermediate_size`); 0 without. */
  sharedIntermediateSize: number;
  /** Qwen2-MoE: a sigmoid gate Linear(h, 1) scales the shared expert's output. */
  sharedExpertGate: boolean;
  /** Layers whose MLP is the MoE block; the other numLayers − numMoeLayers layers keep a dense MLP of `intermediateSize`. */
  numMoeLayers: number;
}

/**
 * Multi-head latent attention (DeepSeek-V2/V3): queries and keys/values pass
 * through low-rank projections; part of each head carries rotary positions.
 * @see DeepSeek-AI 2024, *DeepSeek-V2*, §2.1 (MLA); Hugging Face `modeling_deepseek_v3.py` (DeepseekV3Attention)
 */
export interface MlaArch {
  /** Rank of the query down-projection (`q_lora_rank`); 0 when the queries are projected directly (h × a·(nope + rope)). */
  qLoraRank: number;
  /** Rank of the joint key/value down-projection (`kv_lora_rank`). */
  kvLoraRank: number;
  /** Per-head query/key width without rotary positions (`qk_nope_head_dim`). */
  qkNopeHeadDim: number;
  /** Per-head query/key width with rotary positions (`qk_rope_head_dim`), shared by all heads for the key. */
  qkRopeHeadDim: number;
  /** Per-head value width (`v_head_dim`). */
  vHeadDim: number;
}

/**
 * A decoder-only transformer, normalised from a Hugging Face `config.json`:
 * the fields the parameter count and the activation formulas need.
 * @see the sources of {@link ModelArch}: https://huggingface.co/docs/transformers/main_classes/configuration
 */
export interface ModelArch {
  family: ModelFamily;
  /** `model_type` as written in the file ("llama", "qwen2", "mixtral", "gpt2", …). */
  modelType: string;
  vocabSize: number;
  /** h, the model width. */
  hiddenSize: number;
  /** Width of a dense MLP's inner layer (Llama `intermediate_size`, GPT-2 `n_inner` or 4h); with experts, the dense layers' width (0 when every layer is MoE). */
  intermediateSize: number;
  /** L, the number of transformer blocks (without multi-token-prediction modules). */
  numLayers: number;
  /** a, the number of query heads. */
  numHeads: number;
  /** Key/value heads (grouped-query attention); equals numHeads without GQA. */
  numKvHeads: number;
  headDim: number;
  /** Learned position table rows (GPT-2 `n_positions`); 0 for rotary models. */
  learnedPositions: number;
  tiedEmbeddings: boolean;
  /** Bias vectors on Q, K, V, O projections. */
  attentionBias: boolean;
  /** Bias vectors on the MLP projections. */
  mlpBias: boolean;
  /** "rmsnorm" has a gain only (h); "layernorm" has gain and bias (2h). */
  norm: "rmsnorm" | "layernorm";
  /** "gated": gate, up, down (SwiGLU/GeGLU, 3 matrices); "plain": up, down (2 matrices). */
  mlp: "gated" | "plain";
  /** Bias vectors on Q, K and V only (Qwen2, Qwen2-MoE), not on O; ignored when attentionBias is true. */
  qkvBias?: boolean;
  /** Norms per block (default 2; Gemma 2 has 4: before and after attention and MLP). */
  normsPerLayer?: number;
  /** The longest sequence the model was built for (`max_position_embeddings`), or null when the file does not say. */
  contextLength?: number | null;
  /** Sliding-window attention span in tokens (`sliding_window` when used), or null. */
  slidingWindow?: number | null;
  /** The Hugging Face decoder-layer class (FSDP's `transformer_layer_cls_to_wrap`), e.g. "Qwen2DecoderLayer". */
  decoderLayerClass?: string;
  /** Mixture of experts, when the model has them. */
  moe?: MoeArch;
  /** Multi-head latent attention (replaces the Q, K, V projections), when the model has it. */
  mla?: MlaArch;
  /** Multi-token-prediction modules stored with the weights (DeepSeek-V3 `num_nextn_predict_layers`): counted apart, not in the total. */
  mtpModules?: number;
}
