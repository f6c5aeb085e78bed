import type { countParameters, LlamaConfig } from "../count-parameters.js";

function count(c: LlamaConfig, o: { gqa?: boolean; tie?: boolean; norms?: boolean; gated?: boolean } = {}): number {
  const h = c.hidden_size;
  const kv = o.gqa === false ? c.num_attention_heads : (c.num_key_value_heads ?? c.num_attention_heads);
  const d = h / c.num_attention_heads;
  const attn = 2 * h * h + 2 * h * kv * d;
  const mlp = (o.gated === false ? 2 : 3) * h * c.intermediate_size;
  const norms = o.norms === false ? 0 : 2 * h;
  const head = o.tie === false || !c.tie_word_embeddings ? c.vocab_size * h : 0;
  return c.vocab_size * h + c.num_hidden_layers * (attn + mlp + norms) + (o.norms === false ? 0 : h) + head;
}

export const mutants: Record<string, typeof countParameters> = {
  "ignores grouped-query attention (K and V as wide as Q)": (c) => count(c, { gqa: false }),
  "always adds an lm_head, even when tied": (c) => count(c, { tie: false }),
  "forgets the RMSNorm gains": (c) => count(c, { norms: false }),
  "counts a two-matrix MLP (no gate_proj)": (c) => count(c, { gated: false }),
};
