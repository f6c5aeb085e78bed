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
 * What: the number `sum(p.numel() for p in model.parameters())` prints for
 * Hugging Face's `LlamaForCausalLM` built from `config` (a tensor shared by two
 * modules counted once). Which modules a Llama block has, and their shapes,
 * are derived in the chapter's "Parameters from a config.json" section (source:
 * `modeling_llama.py` in transformers); Llama blocks have no biases.
 *
 * Convention: head_dim = hidden_size / num_attention_heads. Optional fields may
 * be missing, as in real files: no `num_key_value_heads` means as many KV heads
 * as query heads; no `tie_word_embeddings` means false (Llama's default).
 *
 * Example: Llama-2-13B's config (vocab 32000, hidden 5120, intermediate 13824,
 * 40 layers, 40 heads) gives 13,015,864,320, the published count.
 *
 * @param config the config fields above (do not modify it)
 * @returns the parameter count, an integer
 */
export function countParameters(config: LlamaConfig): number {
  return notImplemented("2.1");
}
