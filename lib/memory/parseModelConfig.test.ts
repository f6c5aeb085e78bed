import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { parseModelConfig } from "./parseModelConfig.js";
import { loadPresetText } from "./loadPresetText.js";

const llama = () => JSON.parse(loadPresetText("llama-2-13b")) as Record<string, unknown>;

describe("parseModelConfig(config)", () => {
  it("reads Llama-2-13B's config.json text into the architecture", () => {
    const a = parseModelConfig(loadPresetText("llama-2-13b"));
    expect(a).toMatchObject({ family: "llama", hiddenSize: 5120, numLayers: 40, numHeads: 40, numKvHeads: 40, headDim: 128, tiedEmbeddings: false, mlp: "gated" });
  });

  it("reads GPT-2 with the transformers defaults: tied embeddings, n_inner = 4h, biases", () => {
    const a = parseModelConfig(loadPresetText("gpt2"));
    expect(a).toMatchObject({ family: "gpt2", tiedEmbeddings: true, intermediateSize: 3072, learnedPositions: 1024, attentionBias: true, norm: "layernorm" });
  });

  it("reads Mistral's grouped-query attention (8 KV heads)", () => {
    expect(parseModelConfig(loadPresetText("mistral-7b")).numKvHeads).toBe(8);
  });

  it("rejects a model_type it would count wrongly (BERT, Qwen3, PhiMoE) and names the supported ones", () => {
    expect(() => parseModelConfig({ model_type: "bert", vocab_size: 30522, hidden_size: 768, num_hidden_layers: 12, num_attention_heads: 12, intermediate_size: 3072 })).toThrow(/model_type "bert" is not supported; supported: gpt2, gpt_neox and the Llama-style llama, mistral, qwen2, gemma, gemma2, phi3, mixtral, qwen2_moe, deepseek_v3/);
    expect(() => parseModelConfig({ model_type: "qwen3" })).toThrow(/model_type "qwen3" is not supported/);
    expect(() => parseModelConfig({ model_type: "phimoe" })).toThrow(/model_type "phimoe" is not supported/);
  });

  it("refuses a model whose parameter count is beyond exact integers, naming the fields (it used to answer \"params must be an integer >= 0\" for a positive count)", () => {
    const huge = { ...llama(), num_hidden_layers: 1_000_000, hidden_size: 65536, intermediate_size: 262144, num_attention_heads: 64, num_key_value_heads: 64 };
    expect(() => parseModelConfig(huge)).toThrow(/^config\.json: 1000000 layers of hidden_size 65536 make 6\.87e\+16 parameters, beyond 2\^53/);
    expect(parseModelConfig({ ...llama(), num_hidden_layers: 1 }).numLayers).toBe(1);
  });
  it("names a missing field", () => {
    const c = llama();
    delete c.num_hidden_layers;
    expect(() => parseModelConfig(c)).toThrow(/field "num_hidden_layers" is missing/);
  });

  it("names an ill-typed field and shows the value", () => {
    expect(() => parseModelConfig({ ...llama(), hidden_size: "5120" })).toThrow(/field "hidden_size" must be a positive integer, got "5120"/);
    expect(() => parseModelConfig({ ...llama(), num_key_value_heads: 2.5 })).toThrow(/num_key_value_heads/);
    expect(() => parseModelConfig({ ...llama(), tie_word_embeddings: "no" })).toThrow(/field "tie_word_embeddings" must be a boolean/);
    const g = JSON.parse(loadPresetText("gpt2"));
    expect(() => parseModelConfig({ ...g, n_head: -12 })).toThrow(/field "n_head"/);
  });

  it("rejects malformed JSON and non-objects", () => {
    expect(() => parseModelConfig('{"hidden_size": 5120,')).toThrow(/not valid JSON/);
    expect(() => parseModelConfig("[1, 2]")).toThrow(/must be a JSON object/);
    expect(() => parseModelConfig(null)).toThrow(/must be a JSON object/);
  });

  it("rejects heads that do not divide the width, or KV heads that do not divide the heads", () => {
    expect(() => parseModelConfig({ ...llama(), num_attention_heads: 7 })).toThrow(/hidden_size \(5120\) must be divisible by num_attention_heads \(7\)/);
    expect(() => parseModelConfig({ ...llama(), num_key_value_heads: 3 })).toThrow(/multiple of num_key_value_heads \(3\)/);
  });

  it("property: any value that is not a positive integer in a required field is rejected naming that field", () => {
    const bad = fc.oneof(fc.constant(0), fc.integer({ max: -1 }), fc.double({ noInteger: true }), fc.string(), fc.constant(null), fc.boolean());
    const fields = ["vocab_size", "hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads"];
    fc.assert(fc.property(fc.constantFrom(...fields), bad, (field, value) => {
      expect(() => parseModelConfig({ ...llama(), [field]: value })).toThrow(new RegExp(`"${field}"`));
    }), { seed: 3, numRuns: 100 });
  });
});
