
/**
 * Architecture family, by how its config.json names fields and builds a block.
 * @see the sources of {@link parseModelConfig}: https://huggingface.co/docs/transformers/main_classes/configuration
 */
export type ModelFamily = "llama" | "gpt2" | "gpt_neox";

/**
 * A decoder-only transformer, normalised from a Hugging Face `config.json`:
 * the fields the parameter count and the activation formulas need.
 * @see the sources of {@link parseModelConfig}: https://huggingface.co/docs/transformers/main_classes/configuration
 */
export interface ModelArch {
  family: ModelFamily;
  /** `model_type` as written in the file ("llama", "mistral", "gpt2", …). */
  modelType: string;
  vocabSize: number;
  /** h, the model width. */
  hiddenSize: number;
  /** Width of the MLP's inner layer (Llama `intermediate_size`, GPT-2 `n_inner` or 4h). */
  intermediateSize: number;
  /** L, the number of transformer blocks. */
  numLayers: number;
  /** a, the number of query heads. */
  numHeads: number;
  /** Key/value heads (grouped-query attention); equals numHeads without GQA. */
  numKvHeads: number;
  headDim: number;
  /** Learned position table rows (GPT-2 `n_positions`); 0 for rotary models. */
  learnedPositions: number;
  tiedEmbeddings: boolean;
  /** Bias vectors on Q, K, V, O projections. */
  attentionBias: boolean;
  /** Bias vectors on the MLP projections. */
  mlpBias: boolean;
  /** "rmsnorm" has a gain only (h); "layernorm" has gain and bias (2h). */
  norm: "rmsnorm" | "layernorm";
  /** "gated": gate, up, down (SwiGLU, 3 matrices); "plain": up, down (2 matrices). */
  mlp: "gated" | "plain";
}

// Field rules, in the order the fields are checked (the first bad field is reported).
// Hand-written rather than a schema library: the page loads nothing for them (issue 9: zod was 446 KiB in the browser).
type Rule = "int" | "int?" | "int??" | "bool?";
type Schema = Record<string, Rule>;

const llamaSchema: Schema = {
  vocab_size: "int", hidden_size: "int", intermediate_size: "int", num_hidden_layers: "int", num_attention_heads: "int",
  num_key_value_heads: "int?", head_dim: "int??", tie_word_embeddings: "bool?", attention_bias: "bool?", mlp_bias: "bool?",
};
const gpt2Schema: Schema = {
  vocab_size: "int", n_embd: "int", n_layer: "int", n_head: "int", n_positions: "int", n_inner: "int??", tie_word_embeddings: "bool?",
};
const neoxSchema: Schema = {
  vocab_size: "int", hidden_size: "int", intermediate_size: "int", num_hidden_layers: "int", num_attention_heads: "int", tie_word_embeddings: "bool?",
};

function show(v: unknown): string {
  if (v === undefined) return "nothing";
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

const isPosInt = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;

interface LlamaFields { vocab_size: number; hidden_size: number; intermediate_size: number; num_hidden_layers: number; num_attention_heads: number;
  num_key_value_heads?: number; head_dim?: number | null; tie_word_embeddings?: boolean; attention_bias?: boolean; mlp_bias?: boolean }
interface Gpt2Fields { vocab_size: number; n_embd: number; n_layer: number; n_head: number; n_positions: number; n_inner?: number | null; tie_word_embeddings?: boolean }
interface NeoxFields { vocab_size: number; hidden_size: number; intermediate_size: number; num_hidden_layers: number; num_attention_heads: number; tie_word_embeddings?: boolean }

function check<T>(schema: Schema, raw: Record<string, unknown>, family: string): T {
  for (const [field, rule] of Object.entries(schema)) {
    const got = raw[field];
    const want = rule === "bool?" ? "a boolean" : "a positive integer";
    if (got === undefined) {
      if (rule === "int") throw new TypeError(`config.json: field "${field}" is missing (needed for a ${family} model; it must be ${want})`);
      continue;
    }
    if (got === null && rule === "int??") continue;
    const ok = rule === "bool?" ? typeof got === "boolean" : isPosInt(got);
    if (!ok) throw new TypeError(`config.json: field "${field}" must be ${want}, got ${show(got)}`);
  }
  return raw as T;
}

/**
 * `model_type` values read as Llama-style decoders: a gated (SwiGLU) MLP of
 * width `intermediate_size`, RMSNorm, rotary positions, optional grouped-query
 * `num_key_value_heads`, no biases unless `attention_bias`/`mlp_bias`. Other types (e.g. "bert", "t5", "qwen2" with its QKV biases, MoE models such as
 * "mixtral") are rejected rather than counted wrongly.
 * @see Hugging Face Transformers, LlamaConfig and MistralConfig
 */
export const LLAMA_STYLE_TYPES: readonly string[] = ["llama", "mistral"];

/**
 * Reads a Hugging Face `config.json` (already parsed, or as text) into a {@link ModelArch}.
 *
 * Families: GPT-2 (`model_type` "gpt2" or an `n_embd` field), GPT-NeoX
 * (`model_type` "gpt_neox"), and every Llama-style gated-MLP model (Llama,
 * Mistral, Qwen2, … anything with `hidden_size` and `intermediate_size`).
 * Missing `num_key_value_heads` means no GQA; missing `tie_word_embeddings`
 * takes the transformers default of each family (true for GPT-2, false otherwise).
 *
 * @param config the object from `JSON.parse`, or the file's text
 * @returns the normalised architecture
 * @throws TypeError `config.json is not valid JSON: …`, or
 *   `config.json: field "hidden_size" is missing (…)`, or
 *   `config.json: field "n_head" must be a positive integer, got "12"`
 * @throws RangeError when heads do not divide the width or the KV heads
 * @example parseModelConfig({ model_type: "gpt2", vocab_size: 50257, n_embd: 768, n_layer: 12, n_head: 12, n_positions: 1024 }).numLayers // 12
 * @see https://huggingface.co/docs/transformers/main_classes/configuration
 */
export function parseModelConfig(config: unknown): ModelArch {
  let raw: unknown = config;
  if (typeof config === "string") {
    try {
      raw = JSON.parse(config);
    } catch (e) {
      throw new TypeError(`config.json is not valid JSON: ${(e as Error).message}`);
    }
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new TypeError(`config.json must be a JSON object, got ${show(raw)}`);
  }
  const c = raw as Record<string, unknown>;
  const modelType = typeof c.model_type === "string" ? c.model_type : "";
  if (modelType === "gpt2" || (modelType === "" && "n_embd" in c)) {
    const g = check<Gpt2Fields>(gpt2Schema, c, "GPT-2");
    if (g.n_embd % g.n_head !== 0) throw new RangeError(`config.json: n_embd (${g.n_embd}) must be divisible by n_head (${g.n_head})`);
    return {
      family: "gpt2", modelType: modelType || "gpt2", vocabSize: g.vocab_size, hiddenSize: g.n_embd,
      intermediateSize: g.n_inner ?? 4 * g.n_embd, numLayers: g.n_layer, numHeads: g.n_head, numKvHeads: g.n_head,
      headDim: g.n_embd / g.n_head, learnedPositions: g.n_positions, tiedEmbeddings: g.tie_word_embeddings ?? true,
      attentionBias: true, mlpBias: true, norm: "layernorm", mlp: "plain",
    };
  }
  if (modelType === "gpt_neox") {
    const n = check<NeoxFields>(neoxSchema, c, "GPT-NeoX");
    if (n.hidden_size % n.num_attention_heads !== 0) {
      throw new RangeError(`config.json: hidden_size (${n.hidden_size}) must be divisible by num_attention_heads (${n.num_attention_heads})`);
    }
    return {
      family: "gpt_neox", modelType, vocabSize: n.vocab_size, hiddenSize: n.hidden_size, intermediateSize: n.intermediate_size,
      numLayers: n.num_hidden_layers, numHeads: n.num_attention_heads, numKvHeads: n.num_attention_heads,
      headDim: n.hidden_size / n.num_attention_heads, learnedPositions: 0, tiedEmbeddings: n.tie_word_embeddings ?? false,
      attentionBias: true, mlpBias: true, norm: "layernorm", mlp: "plain",
    };
  }
  if (modelType !== "" && !LLAMA_STYLE_TYPES.includes(modelType)) {
    throw new RangeError(
      `config.json: model_type "${modelType}" is not supported; supported: gpt2, gpt_neox and the Llama-style ${LLAMA_STYLE_TYPES.join(", ")} (gated MLP, RMSNorm, rotary positions)`,
    );
  }
  const l = check<LlamaFields>(llamaSchema, c, modelType ? `"${modelType}" (Llama-style)` : "Llama-style");
  const kv = l.num_key_value_heads ?? l.num_attention_heads;
  if (l.head_dim == null && l.hidden_size % l.num_attention_heads !== 0) {
    throw new RangeError(`config.json: hidden_size (${l.hidden_size}) must be divisible by num_attention_heads (${l.num_attention_heads})`);
  }
  if (l.num_attention_heads % kv !== 0) {
    throw new RangeError(`config.json: num_attention_heads (${l.num_attention_heads}) must be a multiple of num_key_value_heads (${kv})`);
  }
  return {
    family: "llama", modelType: modelType || "llama", vocabSize: l.vocab_size, hiddenSize: l.hidden_size,
    intermediateSize: l.intermediate_size, numLayers: l.num_hidden_layers, numHeads: l.num_attention_heads, numKvHeads: kv,
    headDim: l.head_dim ?? l.hidden_size / l.num_attention_heads, learnedPositions: 0,
    tiedEmbeddings: l.tie_word_embeddings ?? false, attentionBias: l.attention_bias ?? false, mlpBias: l.mlp_bias ?? false,
    norm: "rmsnorm", mlp: "gated",
  };
}
