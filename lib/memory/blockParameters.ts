/**
 * The parameters of one transformer block's parts: attention (standard or
 * multi-head latent), a dense MLP, and a mixture-of-experts block.
 */
import type { ModelArch } from "./modelArch.js";

/**
 * Attention parameters of one block. Standard: Q and O are h × (a·d), K and V
 * h × (k·d), plus biases (all four, or Q, K, V only for Qwen2). MLA (DeepSeek-V3):
 * q_a h × r_q, its norm r_q, q_b r_q × a(d_nope + d_rope) (or q directly
 * h × a(d_nope + d_rope) when r_q = 0); kv_a h × (r_kv + d_rope), its norm r_kv,
 * kv_b r_kv × a(d_nope + d_v); o a·d_v × h; biases on q_a, kv_a and o with `attention_bias`.
 * @param arch the architecture
 * @returns parameters per block
 * @example attentionParamsPerLayer(llama2_13b) // 104857600 (4 × 5120²)
 * @see HF `modeling_llama.py` (LlamaAttention), `modeling_qwen2.py` (Qwen2Attention: bias on q, k, v), `modeling_deepseek_v3.py` (DeepseekV3Attention)
 */
export function attentionParamsPerLayer(arch: ModelArch): number {
  const h = arch.hiddenSize, a = arch.numHeads;
  if (arch.mla) {
    const { qLoraRank: rq, kvLoraRank: rkv, qkNopeHeadDim: nope, qkRopeHeadDim: rope, vHeadDim: v } = arch.mla;
    const q = rq > 0 ? h * rq + rq + rq * a * (nope + rope) : h * a * (nope + rope);
    const kv = h * (rkv + rope) + rkv + rkv * a * (nope + v);
    const bias = arch.attentionBias ? (rq > 0 ? rq : 0) + rkv + rope + h : 0;
    return q + kv + a * v * h + bias;
  }
  const qOut = a * arch.headDim; // width of Q (and input of O)
  const kvOut = arch.numKvHeads * arch.headDim; // width of K and of V (smaller with GQA)
  const bias = arch.attentionBias ? qOut + 2 * kvOut + h : arch.qkvBias ? qOut + 2 * kvOut : 0;
  return h * qOut + 2 * h * kvOut + qOut * h + bias;
}

/**
 * A dense MLP of width I: gated 3·h·I (+ 2I + h with biases), plain 2·h·I (+ I + h).
 * @param arch the architecture
 * @returns parameters of one dense MLP
 * @example denseMlpParams(llama2_13b) // 212336640 (3 × 5120 × 13824)
 * @see HF `modeling_llama.py` (LlamaMLP), `modeling_gpt2.py` (GPT2MLP)
 */
export function denseMlpParams(arch: ModelArch): number {
  const h = arch.hiddenSize, I = arch.intermediateSize;
  return arch.mlp === "gated" ? 3 * h * I + (arch.mlpBias ? 2 * I + h : 0) : 2 * h * I + (arch.mlpBias ? I + h : 0);
}

/** One MoE block's parts, and the routed experts a token does not use. */
export interface MoeBlockParams {
  /** All E routed experts, E·3·h·I_e. */
  experts: number;
  /** The shared experts, 3·h·I_s, and Qwen2-MoE's gate Linear(h, 1). */
  shared: number;
  /** The router Linear(h, E), no bias. */
  router: number;
  /** (E − k)·3·h·I_e: the experts one token skips. */
  idleExperts: number;
}

/**
 * The parameters of one MoE block (all zero without experts). Every expert is
 * a gated MLP without biases (Mixtral, Qwen2-MoE, DeepSeek-V3).
 * @param arch the architecture
 * @returns {@link MoeBlockParams}
 * @example moeBlockParams(mixtral_8x7b).experts // 1409286144 (8 × 3 × 4096 × 14336)
 * @see HF `modeling_mixtral.py` (MixtralExperts, MixtralTopKRouter), `modular_qwen2_moe.py` (Qwen2MoeSparseMoeBlock)
 */
export function moeBlockParams(arch: ModelArch): MoeBlockParams {
  const m = arch.moe;
  if (!m || m.numMoeLayers === 0) return { experts: 0, shared: 0, router: 0, idleExperts: 0 };
  const h = arch.hiddenSize, one = 3 * h * m.expertIntermediateSize;
  return {
    experts: m.numExperts * one,
    shared: 3 * h * m.sharedIntermediateSize + (m.sharedExpertGate ? h : 0),
    router: m.numExperts * h,
    idleExperts: (m.numExperts - m.topK) * one,
  };
}
