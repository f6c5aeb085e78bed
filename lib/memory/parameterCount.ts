import type { ModelArch } from "./parseModelConfig.js";

/**
 * Parameters of a model, by part; `total` counts a tied embedding once.
 * @see the sources of {@link parameterCount}: Touvron et al. 2023, *Llama 2* (Table 1); HF `modeling_llama.py`, `modeling_gpt2.py`, `modeling_gpt_neox.py`
 */
export interface ParameterBreakdown {
  /** Token embedding, V·h. */
  embedding: number;
  /** Learned position table (GPT-2), P·h; 0 for rotary models. */
  positions: number;
  /** All blocks' Q, K, V, O projections (and their biases). */
  attention: number;
  /** All blocks' MLP projections (and their biases). */
  mlp: number;
  /** Every norm's gains (and biases for LayerNorm), final norm included. */
  norms: number;
  /** The output projection V·h; 0 when tied to the embedding. */
  lmHead: number;
  /** Parameters of one transformer block. */
  perLayer: number;
  /** Sum of the above. */
  total: number;
}

/**
 * Counts the parameters of a decoder-only transformer, as
 * `sum(p.numel() for p in model.parameters())` would for the Hugging Face
 * `*ForCausalLM` class (shared tensors counted once).
 *
 * Per block: attention h·(a·d) for Q and O, h·(k·d) for K and V (k = KV heads,
 * d = head_dim), biases when the family has them; MLP 3·h·I (gated: gate, up,
 * down) or 2·h·I + I + h (GPT-2/NeoX, with biases); two norms of h (RMSNorm)
 * or 2h (LayerNorm). Plus embedding V·h, learned positions P·h, a final
 * norm, and an untied output head V·h.
 *
 * @param arch the architecture from {@link parseModelConfig}
 * @returns the named breakdown; `total` is an exact integer
 * @example parameterCount(parseModelConfig(llama2_13b)).total // 13015864320
 * @see Touvron et al. 2023, *Llama 2* (Table 1); HF `modeling_llama.py`, `modeling_gpt2.py`, `modeling_gpt_neox.py`
 */
export function parameterCount(arch: ModelArch): ParameterBreakdown {
  const h = arch.hiddenSize;
  const qOut = arch.numHeads * arch.headDim; // width of Q (and input of O)
  const kvOut = arch.numKvHeads * arch.headDim; // width of K and of V (smaller with GQA)
  const attnBias = arch.attentionBias ? qOut + 2 * kvOut + h : 0;
  const attentionPerLayer = h * qOut + 2 * h * kvOut + qOut * h + attnBias;
  const I = arch.intermediateSize;
  const mlpPerLayer = arch.mlp === "gated"
    ? 3 * h * I + (arch.mlpBias ? 2 * I + h : 0)
    : 2 * h * I + (arch.mlpBias ? I + h : 0);
  const oneNorm = arch.norm === "layernorm" ? 2 * h : h;
  const perLayer = attentionPerLayer + mlpPerLayer + 2 * oneNorm;
  const embedding = arch.vocabSize * h;
  const positions = arch.learnedPositions * h;
  const lmHead = arch.tiedEmbeddings ? 0 : arch.vocabSize * h;
  const attention = arch.numLayers * attentionPerLayer;
  const mlp = arch.numLayers * mlpPerLayer;
  const norms = arch.numLayers * 2 * oneNorm + oneNorm;
  return { embedding, positions, attention, mlp, norms, lmHead, perLayer, total: embedding + positions + attention + mlp + norms + lmHead };
}

/**
 * Parameters of the largest single module (the one `model.modules()` would
 * find with the most direct parameters), as DeepSpeed's ZeRO-3 estimator uses
 * for the memory of gathering one layer.
 *
 * Candidates: the embedding or the output head (V·h), the largest MLP matrix
 * (h·I, plus bias), the fused QKV (GPT-2/NeoX) or the Q projection.
 *
 * @param arch the architecture
 * @returns a parameter count
 * @example largestLayerParams(parseModelConfig(llama2_13b)) // 163840000 (32000 × 5120)
 * @see DeepSpeed `deepspeed/runtime/zero/stage3.py` `model_to_params`
 */
export function largestLayerParams(arch: ModelArch): number {
  const h = arch.hiddenSize;
  const I = arch.intermediateSize;
  const qkvFused = arch.family !== "llama" ? h * 3 * h + 3 * h : h * arch.numHeads * arch.headDim;
  const mlpMatrix = h * I + (arch.mlpBias ? I : 0);
  return Math.max(arch.vocabSize * h, arch.learnedPositions * h, qkvFused, mlpMatrix);
}
