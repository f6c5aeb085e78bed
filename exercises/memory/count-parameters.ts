import { notImplemented } from "../harness/index.js";

/** A Hugging Face `config.json`, parsed: its fields as the file names them. */
export type HfConfig = Record<string, unknown>;

/**
 * Exercise 2.1 — count the parameters of a model from its config.json, for
 * four families.
 *
 * What: the number `sum(p.numel() for p in model.parameters())` prints for the
 * `*ForCausalLM` class that Hugging Face transformers builds from `config`
 * (a tensor shared by two modules counted once), for the families of the
 * chapter's shipped configs.
 * Input: `config`, a parsed config.json (not modified). Its `model_type`
 * picks the family and the field names (defaults are transformers'):
 * - "llama", "mistral" (Llama-style: RMSNorm, gated MLP, rotary positions):
 *   vocab_size, hidden_size, intermediate_size, num_hidden_layers,
 *   num_attention_heads; num_key_value_heads (default num_attention_heads),
 *   head_dim (default hidden_size / num_attention_heads), tie_word_embeddings
 *   (false), attention_bias (false: no biases in q, k, v, o), mlp_bias (false);
 * - "gpt2": vocab_size, n_embd, n_layer, n_head, n_positions (the learned
 *   position table), n_inner (null or missing: 4·n_embd), tie_word_embeddings
 *   (true);
 * - "gpt_neox" (Pythia): vocab_size, hidden_size, intermediate_size,
 *   num_hidden_layers, num_attention_heads, tie_word_embeddings (false). Its
 *   modules are GPT-2's (LayerNorms with bias, a fused QKV and every linear
 *   layer with bias, a plain MLP) with rotary positions instead of a table.
 * Other fields (dropout, rotary settings, …) do not change the count.
 * Output: the parameter count, an exact integer.
 * Errors: another model_type throws a RangeError naming it; a required field
 * that is missing or not a positive integer throws an Error whose message
 * names the field, e.g. `config.json: field "n_embd" is missing`.
 * Convention and source: transformers' `modeling_llama.py`,
 * `modeling_mistral.py`, `modeling_gpt2.py` (GPT2LMHeadModel) and
 * `modeling_gpt_neox.py` (GPTNeoXForCausalLM).
 * Example: Llama-2-13B's config (vocab 32000, hidden 5120, intermediate
 * 13824, 40 layers, 40 heads) gives 13,015,864,320, the published count.
 * The page: src/memory.md, "Parameters from a config.json" (the Llama block
 * and what GPT-2 adds).
 *
 * @param config the parsed config.json
 * @returns the parameter count
 * @throws {RangeError} on a model_type of another family
 */
export function countParameters(config: HfConfig): number {
  return notImplemented("2.1");
}
