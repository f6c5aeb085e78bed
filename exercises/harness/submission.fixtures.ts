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
const COUNT_PARAMETERS = `countParameters(config: { vocab_size: number; hidden_size: number; intermediate_size: number; num_hidden_layers: number;
  num_attention_heads: number; num_key_value_heads?: number; tie_word_embeddings?: boolean }): number`;

/** Exercise 2.1 solved: embedding, per block 2·H² (Q, O) + 2·H·kv·d (K, V) + 3·H·I (gated MLP) + 2·H (norms), final norm, head unless tied. */
export function correctCountParameters(): string {
  return stubWithBody(COUNT_PARAMETERS, `const H = config.hidden_size, I = config.intermediate_size, V = config.vocab_size;
  const heads = config.num_attention_heads, kv = config.num_key_value_heads ?? heads, d = H / heads;
  const block = 2 * H * H + 2 * H * kv * d + 3 * H * I + 2 * H;
  return V * H + config.num_hidden_layers * block + H + (config.tie_word_embeddings ? 0 : V * H);`);
}

/** Exercise 2.1 wrong: only the embedding. */
export function wrongCountParameters(): string {
  return stubWithBody(COUNT_PARAMETERS, "return config.vocab_size * config.hidden_size;");
}

/** Exercise 1.2 wrong: returns x unrounded. */
export function wrongRoundBf16(): string {
  return stubWithBody("roundToBf16(x: number): number", "return x;");
}
