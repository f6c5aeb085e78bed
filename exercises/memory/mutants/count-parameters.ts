import type { countParameters, LlamaConfig } from "../count-parameters.js";
import type { Mutant } from "../../harness/index.js";

function count(c: LlamaConfig, o: { gqa?: boolean; tie?: boolean; norms?: boolean; gated?: boolean; missingKvIsOne?: boolean; missingTieIsTrue?: boolean } = {}): number {
  const h = c.hidden_size;
  const kv = o.gqa === false ? c.num_attention_heads : (c.num_key_value_heads ?? (o.missingKvIsOne ? 1 : c.num_attention_heads));
  const d = h / c.num_attention_heads;
  const attn = 2 * h * h + 2 * h * kv * d;
  const mlp = (o.gated === false ? 2 : 3) * h * c.intermediate_size;
  const norms = o.norms === false ? 0 : 2 * h;
  const tied = c.tie_word_embeddings ?? (o.missingTieIsTrue ? true : false);
  const head = o.tie === false || !tied ? c.vocab_size * h : 0;
  return c.vocab_size * h + c.num_hidden_layers * (attn + mlp + norms) + (o.norms === false ? 0 : h) + head;
}

export const mutants: Record<string, Mutant<typeof countParameters>> = {
  "ignores grouped-query attention (K and V as wide as Q)": { impl: (c) => count(c, { gqa: false }), caughtBy: "grouped-query attention (Llama-2-70B, Mistral-7B)" },
  "always adds an lm_head, even when tied": { impl: (c) => count(c, { tie: false }), caughtBy: "tied embeddings count the matrix once" },
  "forgets the RMSNorm gains": { impl: (c) => count(c, { norms: false }), caughtBy: "Llama-2-13B (published 13,015,864,320)" },
  "counts a two-matrix MLP (no gate_proj)": { impl: (c) => count(c, { gated: false }), caughtBy: "Llama-2-13B (published 13,015,864,320)" },
  "reads a missing num_key_value_heads as 1 (multi-query)": { impl: (c) => count(c, { missingKvIsOne: true }), caughtBy: "missing optional fields take their defaults" },
  "reads a missing tie_word_embeddings as true": { impl: (c) => count(c, { missingTieIsTrue: true }), caughtBy: "missing optional fields take their defaults" },
};
