import type { countParameters, HfConfig } from "../count-parameters.js";
import type { Mutant } from "../../harness/index.js";

interface Options {
  /** K and V as wide as Q */
  noGqa?: boolean;
  /** head_dim = hidden / heads even when the config gives head_dim */
  ignoreHeadDim?: boolean;
  /** the Llama count for every family */
  llamaOnly?: boolean;
  /** GPT-2 without its position table */
  noPositions?: boolean;
  /** GPT-NeoX's head tied, as GPT-2's */
  neoxTied?: boolean;
  /** LayerNorm counted as h (no bias) */
  normWithoutBias?: boolean;
  /** GPT-2's n_inner null read as 0 */
  nullInner?: boolean;
  /** no biases on the linear layers of GPT-2 and NeoX */
  noLinearBias?: boolean;
  /** attention_bias / mlp_bias ignored */
  ignoreLlamaBias?: boolean;
  noCheck?: boolean;
}

const num = (c: HfConfig, k: string): number => {
  const v = c[k];
  if (typeof v !== "number" || !Number.isInteger(v) || v <= 0) throw new TypeError(`config.json: field "${k}" is missing or not a positive integer`);
  return v;
};

function count(c: HfConfig, o: Options = {}): number {
  const type = String(c.model_type);
  if (!o.noCheck && !["llama", "mistral", "gpt2", "gpt_neox"].includes(type)) throw new RangeError(`model_type "${type}" is not supported`);
  if ((type === "gpt2" || type === "gpt_neox") && !o.llamaOnly) {
    const gpt2 = type === "gpt2";
    const h = num(c, gpt2 ? "n_embd" : "hidden_size"), L = num(c, gpt2 ? "n_layer" : "num_hidden_layers"), V = num(c, "vocab_size");
    const I = gpt2 ? (c.n_inner == null ? (o.nullInner && c.n_inner === null ? 0 : 4 * h) : num(c, "n_inner")) : num(c, "intermediate_size");
    const b = o.noLinearBias ? 0 : 1;
    const norm = o.normWithoutBias ? h : 2 * h;
    const block = 3 * h * h + b * 3 * h + h * h + b * h + h * I + b * I + I * h + b * h + 2 * norm;
    const tied = (c.tie_word_embeddings as boolean | undefined) ?? (gpt2 || o.neoxTied);
    return V * h + (gpt2 && !o.noPositions ? num(c, "n_positions") * h : 0) + L * block + norm + (tied ? 0 : V * h);
  }
  const h = num(c, "hidden_size"), L = num(c, "num_hidden_layers"), V = num(c, "vocab_size"), I = num(c, "intermediate_size"), a = num(c, "num_attention_heads");
  const kv = o.noGqa ? a : (c.num_key_value_heads as number | undefined) ?? a;
  const d = o.ignoreHeadDim ? h / a : (c.head_dim as number | undefined) ?? h / a;
  const ab = !o.ignoreLlamaBias && c.attention_bias === true, mb = !o.ignoreLlamaBias && c.mlp_bias === true;
  const attn = 2 * h * a * d + 2 * h * kv * d + (ab ? a * d + 2 * kv * d + h : 0);
  const mlp = 3 * h * I + (mb ? 2 * I + h : 0);
  return V * h + L * (attn + mlp + 2 * h) + h + (c.tie_word_embeddings === true ? 0 : V * h);
}

const m = (o: Options) => (c: HfConfig) => count(c, o);

export const mutants: Record<string, Mutant<typeof countParameters>> = {
  "the Llama count for every family": { impl: m({ llamaOnly: true }), caughtBy: ["the shipped configs: Llama-2, Mistral-7B, GPT-2 (124,439,808), Pythia-70M (70,426,624)", "GPT-2: n_inner, the position table, the tie"] },
  "ignores grouped-query attention (K and V as wide as Q)": { impl: m({ noGqa: true }), caughtBy: ["the shipped configs: Llama-2, Mistral-7B, GPT-2 (124,439,808), Pythia-70M (70,426,624)", "random configs of each family"] },
  "head_dim taken as hidden_size / heads although the config gives it": { impl: m({ ignoreHeadDim: true }), caughtBy: "Llama-style options: head_dim, attention_bias, mlp_bias, tied" },
  "GPT-2 without its position table": { impl: m({ noPositions: true }), caughtBy: ["the shipped configs: Llama-2, Mistral-7B, GPT-2 (124,439,808), Pythia-70M (70,426,624)", "GPT-2: n_inner, the position table, the tie"] },
  "GPT-NeoX's head tied to the embedding by default, as GPT-2's": { impl: m({ neoxTied: true }), caughtBy: "random configs of each family" },
  "LayerNorm counted without its bias": { impl: m({ normWithoutBias: true }), caughtBy: "the shipped configs: Llama-2, Mistral-7B, GPT-2 (124,439,808), Pythia-70M (70,426,624)" },
  "GPT-2's n_inner: null read as 0": { impl: m({ nullInner: true }), caughtBy: "GPT-2: n_inner, the position table, the tie" },
  "no biases on GPT-2's and NeoX's linear layers": { impl: m({ noLinearBias: true }), caughtBy: ["the shipped configs: Llama-2, Mistral-7B, GPT-2 (124,439,808), Pythia-70M (70,426,624)", "random configs of each family"] },
  "attention_bias and mlp_bias ignored": { impl: m({ ignoreLlamaBias: true }), caughtBy: "Llama-style options: head_dim, attention_bias, mlp_bias, tied" },
  "any model_type counted as Llama": { impl: m({ noCheck: true }), caughtBy: "bad input: the error names the field or the model_type" },
};
