/**
 * Student submissions for the tests of the Gradescope zip and the CSV summary:
 * whole stub files with the stubs' exported names and signatures, written for
 * these tests (not copied from lib/). They are not made from the repository's
 * stubs, which the student may have written by now (npm test does not depend on
 * the student's edits).
 */

/** A stub file: the exported function `signature` with `body`. */
function stubWithBody(signature: string, body: string): string {
  return `// A submission written for the harness's tests.\nexport function ${signature} {\n  ${body}\n}\n`;
}

/** The signature of exercise 2.1's stub (exercises/memory/count-parameters.ts). */
const COUNT_PARAMETERS = "countParameters(config: Record<string, unknown>): number";

/**
 * Exercise 2.1 solved, for the four families: Llama-style blocks (2·h·a·d for Q and O, 2·h·kv·d for K and V,
 * 3·h·I, two RMSNorms, optional biases), GPT-2 and GPT-NeoX blocks (fused QKV and every linear layer with bias,
 * 2·h·I MLP, two LayerNorms of 2h), GPT-2's position table and tied head, NeoX's untied head.
 */
export function correctCountParameters(): string {
  return stubWithBody(COUNT_PARAMETERS, `const c = config as Record<string, any>;
  const need = (k: string): number => { const v = c[k]; if (!Number.isInteger(v) || v <= 0) throw new TypeError(\`config.json: field "\${k}" is missing or bad\`); return v; };
  const type = c.model_type;
  if (type === "gpt2" || type === "gpt_neox") {
    const gpt2 = type === "gpt2", h = need(gpt2 ? "n_embd" : "hidden_size"), L = need(gpt2 ? "n_layer" : "num_hidden_layers"), V = need("vocab_size");
    if (gpt2) need("n_head"); else need("num_attention_heads");
    const I = gpt2 ? (c.n_inner ?? 4 * h) : need("intermediate_size");
    const block = 4 * h * h + 4 * h + 2 * h * I + I + h + 4 * h;
    const tied = c.tie_word_embeddings ?? gpt2;
    return V * h + (gpt2 ? need("n_positions") * h : 0) + L * block + 2 * h + (tied ? 0 : V * h);
  }
  if (type !== "llama" && type !== "mistral") throw new RangeError(\`model_type "\${type}" is not supported\`);
  const h = need("hidden_size"), I = need("intermediate_size"), V = need("vocab_size"), L = need("num_hidden_layers"), a = need("num_attention_heads");
  const kv = c.num_key_value_heads ?? a, d = c.head_dim ?? h / a;
  const attn = 2 * h * a * d + 2 * h * kv * d + (c.attention_bias ? a * d + 2 * kv * d + h : 0);
  const mlp = 3 * h * I + (c.mlp_bias ? 2 * I + h : 0);
  return V * h + L * (attn + mlp + 2 * h) + h + (c.tie_word_embeddings ? 0 : V * h);`);
}

/** Exercise 2.1 wrong: only the embedding. */
export function wrongCountParameters(): string {
  return stubWithBody(COUNT_PARAMETERS, "return config.vocab_size * config.hidden_size;");
}

/** Exercise 1.2 wrong: returns x unrounded. */
export function wrongRoundBf16(): string {
  return stubWithBody("roundToBf16(x: number): number", "return x;");
}
