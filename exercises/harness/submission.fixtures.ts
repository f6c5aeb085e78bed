/**
 * Student submissions for the tests of the Gradescope zip and the CSV summary:
 * the real stubs with their bodies replaced (so that they follow the stubs'
 * signatures). Written for these tests, not copied from lib/.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./discover.js";

function stubWithBody(file: string, id: string, body: string): string {
  const stub = readFileSync(join(ROOT, file), "utf8");
  const line = `return notImplemented("${id}");`;
  if (!stub.includes(line)) throw new Error(`${file} no longer has the line ${line}`);
  return stub.replace(line, body);
}

/**
 * Exercise 2.1 solved, for the four families: Llama-style blocks (2·h·a·d for Q and O, 2·h·kv·d for K and V,
 * 3·h·I, two RMSNorms, optional biases), GPT-2 and GPT-NeoX blocks (fused QKV and every linear layer with bias,
 * 2·h·I MLP, two LayerNorms of 2h), GPT-2's position table and tied head, NeoX's untied head.
 */
export function correctCountParameters(): string {
  return stubWithBody("exercises/memory/count-parameters.ts", "2.1", `const c = config as Record<string, any>;
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
  return stubWithBody("exercises/memory/count-parameters.ts", "2.1", "return config.vocab_size * config.hidden_size;");
}

/** Exercise 1.2 wrong: returns x unrounded. */
export function wrongRoundBf16(): string {
  return stubWithBody("exercises/precision/round-bf16.ts", "1.2", "return x;");
}
