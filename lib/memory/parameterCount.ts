import type { ModelArch } from "./modelArch.js";
import { attentionParamsPerLayer, denseMlpParams, moeBlockParams } from "./blockParameters.js";

/**
 * Parameters of a model, by part; `total` counts a tied embedding once.
 * @see the sources of {@link parameterCount}: Touvron et al. 2023, *Llama 2* (Table 1); HF `modeling_llama.py`, `modeling_gpt2.py`, `modeling_gpt_neox.py`, `modeling_mixtral.py`, `modular_qwen2_moe.py`, `modeling_deepseek_v3.py`
 */
export interface ParameterBreakdown {
  /** Token embedding, V·h. */
  embedding: number;
  /** Learned position table (GPT-2), P·h; 0 for rotary models. */
  positions: number;
  /** All blocks' attention projections (Q, K, V, O or MLA's low-rank ones, their norms and biases). */
  attention: number;
  /** All dense MLPs (and their biases); with experts, only the layers that keep a dense MLP. */
  mlp: number;
  /** All routed experts of all MoE layers (0 without experts). */
  experts: number;
  /** All shared experts (Qwen2-MoE, DeepSeek-V3) and their gates (0 without). */
  sharedExperts: number;
  /** All routers, Linear(h, E) per MoE layer (0 without experts). */
  router: number;
  /** Every norm's gains (and biases for LayerNorm), final norm included. */
  norms: number;
  /** The output projection V·h; 0 when tied to the embedding. */
  lmHead: number;
  /** Parameters of one transformer block (an MoE block when the model has both kinds). */
  perLayer: number;
  /** Sum of the above: what `sum(p.numel() for p in model.parameters())` gives for the Hugging Face `*ForCausalLM`. */
  total: number;
  /** Parameters a token goes through: total minus the routed experts it is not sent to, (E − k) per MoE layer (= total without experts). */
  activeParameters: number;
  /** Multi-token-prediction modules stored with the weights (DeepSeek-V3), not in `total`: one block, the projection eh_proj (2h × h) and three norms each; they share the embedding and head. */
  mtp: number;
}

/**
 * Counts the parameters of a decoder-only transformer, as
 * `sum(p.numel() for p in model.parameters())` would for the Hugging Face
 * `*ForCausalLM` class (shared tensors counted once), and the parameters one
 * token uses.
 *
 * Per block: attention h·(a·d) for Q and O, h·(k·d) for K and V (k = KV heads,
 * d = head_dim), biases when the family has them (Qwen2: Q, K, V only), or
 * MLA's projections (see blockParameters.ts); MLP 3·h·I (gated) or 2·h·I + I + h
 * (GPT-2/NeoX, with biases); with experts, E routed experts of 3·h·I_e, the
 * shared experts 3·h·I_s (+ h for Qwen2-MoE's gate), a router E·h; norms of h
 * (RMSNorm) or 2h (LayerNorm), two per block (Gemma 2: four). Plus embedding
 * V·h, learned positions P·h, a final norm, and an untied output head V·h.
 * Active per token: total − (E − k)·3·h·I_e per MoE layer.
 *
 * @param arch the architecture from {@link parseModelConfig}
 * @returns the named breakdown; every field is an exact integer
 * @example parameterCount(parseModelConfig(llama2_13b)).total // 13015864320
 * @example parameterCount(parseModelConfig(mixtral_8x7b)).activeParameters // 12879925248 (of 46702792704)
 * @see Touvron et al. 2023, *Llama 2* (Table 1); Jiang et al. 2024, *Mixtral of Experts* §2 (active parameters);
 *   DeepSeek-AI 2024, *DeepSeek-V3 Technical Report* §2 and README_WEIGHTS.md; HF `modeling_llama.py`, `modeling_gpt2.py`, `modeling_gpt_neox.py`
 */
export function parameterCount(arch: ModelArch): ParameterBreakdown {
  const h = arch.hiddenSize, L = arch.numLayers;
  const attentionPerLayer = attentionParamsPerLayer(arch);
  const oneNorm = arch.norm === "layernorm" ? 2 * h : h;
  const blockNorms = (arch.normsPerLayer ?? 2) * oneNorm;
  const moeLayers = arch.moe?.numMoeLayers ?? 0, denseLayers = L - moeLayers;
  const dense = denseMlpParams(arch), moe = moeBlockParams(arch);
  const embedding = arch.vocabSize * h;
  const positions = arch.learnedPositions * h;
  const lmHead = arch.tiedEmbeddings ? 0 : arch.vocabSize * h;
  const attention = L * attentionPerLayer;
  const mlp = denseLayers * dense;
  const experts = moeLayers * moe.experts, sharedExperts = moeLayers * moe.shared, router = moeLayers * moe.router;
  const norms = L * blockNorms + oneNorm;
  const perLayer = attentionPerLayer + blockNorms + (moeLayers > 0 ? moe.experts + moe.shared + moe.router : dense);
  const total = embedding + positions + attention + mlp + experts + sharedExperts + router + norms + lmHead;
  const activeParameters = total - moeLayers * moe.idleExperts;
  const mtpBlock = attentionPerLayer + blockNorms + (moeLayers > 0 ? moe.experts + moe.shared + moe.router : dense);
  const mtp = (arch.mtpModules ?? 0) * (mtpBlock + 2 * h * h + 3 * oneNorm);
  return { embedding, positions, attention, mlp, experts, sharedExperts, router, norms, lmHead, perLayer, total, activeParameters, mtp };
}

/**
 * Parameters of the largest single module (the one `model.modules()` would
 * find with the most direct parameters), as DeepSpeed's ZeRO-3 estimator uses
 * for the memory of gathering one layer.
 *
 * Candidates: the embedding or the output head (V·h), the largest MLP matrix
 * (h·I, plus bias; Phi-3's fused gate_up 2·h·I), the fused QKV (GPT-2/NeoX,
 * Phi-3) or the Q projection, MLA's projections, and with experts the experts
 * module of one layer: transformers keeps all E experts of a layer in one
 * module of two 3-D parameters (gate_up_proj E × 2I × h, down_proj E × h × I),
 * so ZeRO-3 gathers 3·E·h·I at once.
 *
 * @param arch the architecture
 * @returns a parameter count
 * @example largestLayerParams(parseModelConfig(llama2_13b)) // 163840000 (32000 × 5120)
 * @example largestLayerParams(parseModelConfig(mixtral_8x7b)) // 1409286144 (8 experts × 3 × 4096 × 14336)
 * @see DeepSpeed `deepspeed/runtime/zero/stage3.py` `model_to_params`; HF `modeling_mixtral.py` (MixtralExperts: "expert weights stored as 3D tensors")
 */
export function largestLayerParams(arch: ModelArch): number {
  const h = arch.hiddenSize;
  const I = arch.intermediateSize;
  const qkv = arch.family !== "llama" ? h * 3 * h + 3 * h
    : arch.modelType === "phi3" ? h * (arch.numHeads + 2 * arch.numKvHeads) * arch.headDim
    : h * arch.numHeads * arch.headDim;
  const mlpMatrix = arch.modelType === "phi3" ? 2 * h * I : h * I + (arch.mlpBias ? I : 0);
  const moe = moeBlockParams(arch);
  const mla = arch.mla ? Math.max(arch.numHeads * arch.mla.vHeadDim * h, arch.mla.kvLoraRank * arch.numHeads * (arch.mla.qkNopeHeadDim + arch.mla.vHeadDim)) : 0;
  return Math.max(arch.vocabSize * h, arch.learnedPositions * h, qkv, mlpMatrix, moe.experts, moe.shared, mla);
}
