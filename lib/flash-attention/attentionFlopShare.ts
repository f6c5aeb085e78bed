/**
 * How much of a decoder layer's matrix-multiply work is the attention itself
 * (the QKᵀ and PV products that FlashAttention fuses), per token.
 */

/**
 * One decoder layer: hidden size h, MLP width I, heads a and key/value heads (GQA), sequence length s.
 * @see the sources of {@link attentionFlopShare}: Narayanan et al. 2021, *Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM*, §5.1 (FLOPs per layer)
 */
export interface LayerFlopShape {
  /** h, hidden_size */
  hidden: number;
  /** I, intermediate_size */
  intermediate: number;
  /** a, num_attention_heads */
  heads: number;
  /** num_key_value_heads (default: heads, i.e. multi-head attention) */
  kvHeads?: number;
  /** s, the number of keys each query is multiplied with */
  seqLen: number;
  /** true for a gated MLP (Llama's SwiGLU: gate, up, down = 3 matrices), false for GPT's 2 (default true) */
  gatedMlp?: boolean;
}

/**
 * Forward FLOPs per token of one layer's matrix products, split into parts.
 *
 * A product of a (1×m) row with an (m×n) matrix costs 2mn FLOPs. Per token:
 * projections Q and O cost 2h² each, K and V 2h·h_kv each (h_kv = h·kvHeads/heads);
 * the MLP 2hI per matrix (3 matrices gated, 2 not); the attention products
 * QKᵀ and PV 2sh each (each query against s keys, as eager attention and
 * FlashAttention without causal block skipping compute them). With I = 4h,
 * no gating and MHA the total is 24h² + 4sh, Narayanan et al.'s 24Bsh² + 4Bs²h
 * divided by the Bs tokens. Norms, softmax and activations are left out (they
 * are not matrix products).
 * @param shape hidden, intermediate, heads, kvHeads, seqLen, gatedMlp
 * @returns {projections, mlp, attention, total} in FLOPs per token, and share = attention / total
 * @throws RangeError `hidden must be an integer >= 1, got 0` (likewise intermediate, heads, kvHeads, seqLen), `kvHeads must divide heads, got 3 and 40`
 * @example attentionFlopShare({hidden: 5120, intermediate: 13824, heads: 40, seqLen: 2048}).share // 0.0620 (Llama-2-13B's shape at s = 2048)
 * @see Narayanan et al. 2021, Megatron-LM, §5.1 (24Bsh² + 4Bs²h forward FLOPs per layer); Touvron et al. 2023, Llama 2, §2.2 (SwiGLU)
 */
export function attentionFlopShare(shape: LayerFlopShape): { projections: number; mlp: number; attention: number; total: number; share: number } {
  const { hidden: h, intermediate: I, heads, seqLen: s } = shape;
  const kvHeads = shape.kvHeads ?? heads;
  for (const [name, v] of [["hidden", h], ["intermediate", I], ["heads", heads], ["kvHeads", kvHeads], ["seqLen", s]] as const) {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be an integer >= 1, got ${v}`);
  }
  if (heads % kvHeads !== 0) throw new RangeError(`kvHeads must divide heads, got ${kvHeads} and ${heads}`);
  const hKv = (h * kvHeads) / heads;
  const projections = 2 * h * h + 2 * 2 * h * hKv + 2 * h * h; // Q, K, V, O
  const mlp = (shape.gatedMlp ?? true ? 3 : 2) * 2 * h * I;
  const attention = 2 * s * h + 2 * s * h; // QKᵀ and PV
  const total = projections + mlp + attention;
  return { projections, mlp, attention, total, share: attention / total };
}
