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

/** Exercise 2.1 solved: embedding, per block 2·H² (Q, O) + 2·H·kv·d (K, V) + 3·H·I (gated MLP) + 2·H (norms), final norm, head unless tied. */
export function correctCountParameters(): string {
  return stubWithBody("exercises/memory/count-parameters.ts", "2.1", `const H = config.hidden_size, I = config.intermediate_size, V = config.vocab_size;
  const heads = config.num_attention_heads, kv = config.num_key_value_heads ?? heads, d = H / heads;
  const block = 2 * H * H + 2 * H * kv * d + 3 * H * I + 2 * H;
  return V * H + config.num_hidden_layers * block + H + (config.tie_word_embeddings ? 0 : V * H);`);
}

/** Exercise 2.1 wrong: only the embedding. */
export function wrongCountParameters(): string {
  return stubWithBody("exercises/memory/count-parameters.ts", "2.1", "return config.vocab_size * config.hidden_size;");
}

/** Exercise 1.2 wrong: returns x unrounded. */
export function wrongRoundBf16(): string {
  return stubWithBody("exercises/precision/round-bf16.ts", "1.2", "return x;");
}
