import { notImplemented } from "../harness/index.js";

/** The fields of a Llama-style Hugging Face `config.json` that fix the parameter count. */
export interface LlamaConfig {
  vocab_size: number;
  hidden_size: number;
  intermediate_size: number;
  num_hidden_layers: number;
  num_attention_heads: number;
  /** Grouped-query attention: K and V have this many heads. Missing means num_attention_heads. */
  num_key_value_heads?: number;
  /** true: the output head reuses the embedding matrix. Missing means false. */
  tie_word_embeddings?: boolean;
}

/**
 * Exercise 2.1 — count the parameters of a Llama-style model from its config.json.
 *
 * Return what `sum(p.numel() for p in model.parameters())` gives for
 * `LlamaForCausalLM` built from `config`:
 * - token embedding: vocab_size × hidden_size;
 * - per layer (num_hidden_layers of them), with h = hidden_size, d = h / num_attention_heads:
 *   q_proj h × (heads·d), k_proj and v_proj h × (kv_heads·d), o_proj (heads·d) × h, no biases;
 *   gate_proj and up_proj h × intermediate_size, down_proj intermediate_size × h;
 *   two RMSNorms with h gains each;
 * - a final RMSNorm (h);
 * - lm_head vocab_size × h, unless tie_word_embeddings is true (then it is the embedding, counted once).
 *
 * Edge cases: num_key_value_heads missing → equal to num_attention_heads;
 * tie_word_embeddings missing → false. Check yourself: Llama-2-13B's config gives
 * 13,015,864,320. Read: the Llama modeling code in transformers
 * (`modeling_llama.py`), and the chapter's "Parameters from a config.json" section.
 *
 * @param config the config fields above (do not modify it)
 * @returns the parameter count, an integer
 */
export function countParameters(config: LlamaConfig): number {
  return notImplemented("2.1");
}
