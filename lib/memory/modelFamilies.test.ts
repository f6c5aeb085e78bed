import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { parseModelConfig } from "./parseModelConfig.js";
import { largestLayerParams, parameterCount } from "./parameterCount.js";
import { loadPresetText } from "./loadPresetText.js";
import type { PresetName } from "./presets.js";

const arch = (name: PresetName) => parseModelConfig(loadPresetText(name));
const json = (name: PresetName) => JSON.parse(loadPresetText(name)) as Record<string, unknown>;
/** Relative distance of our count from a published figure. */
const off = (ours: number, published: number) => Math.abs(ours - published) / published;

describe("parameterCount of the newer families against their published totals", () => {
  // Each figure is the publisher's, rounded as published; our count is exact, so the test allows the rounding (≤ 0.5 % of the last digit's place).
  it("Qwen2.5-7B: 7.61B in all and 6.53B without the embedding and head (model card, huggingface.co/Qwen/Qwen2.5-7B)", () => {
    const b = parameterCount(arch("qwen2.5-7b"));
    expect(b.total).toBe(7_615_616_512);
    expect(off(b.total, 7.61e9)).toBeLessThan(0.001);
    expect(off(b.total - b.embedding - b.lmHead, 6.53e9)).toBeLessThan(0.001);
  });

  it("Gemma 7B: 7,751,248,896 non-embedding parameters, exactly (Gemma Team 2024, arXiv:2403.08295, Table 2)", () => {
    const b = parameterCount(arch("gemma-7b"));
    expect(b.total - b.embedding).toBe(7_751_248_896);
    expect(b.lmHead).toBe(0); // tied by default (GemmaConfig)
    // Table 2's embedding count, 786,825,216, is 256,128 × 3072: the paper counts a vocabulary of 256,128 rows; config.json's vocab_size is 256,000.
    expect(786_825_216 / 3072).toBe(256_128);
  });

  it("Gemma 2 9B: 8,324,201,984 non-embedding parameters, exactly (Gemma Team 2024, arXiv:2408.00118, Table 2)", () => {
    const b = parameterCount(arch("gemma-2-9b"));
    expect(b.total - b.embedding).toBe(8_324_201_984);
  });

  it("Phi-3-mini: 3.8B (Abdin et al. 2024, arXiv:2404.14219, §2: \"a 3.8 billion parameter language model\")", () => {
    expect(off(parameterCount(arch("phi-3-mini-4k")).total, 3.8e9)).toBeLessThan(0.01);
  });

  it("Mixtral 8x7B: 46.7B in all, 12.9B used per token (Mistral AI, \"Mixtral of experts\", 2023-12-11; Jiang et al. 2024 §2: 47B / 13B)", () => {
    const b = parameterCount(arch("mixtral-8x7b"));
    expect(off(b.total, 46.7e9)).toBeLessThan(0.001);
    expect(off(b.activeParameters, 12.9e9)).toBeLessThan(0.002);
  });

  it("Qwen1.5-MoE-A2.7B: 14.3B in all, 2.7B activated (model card, huggingface.co/Qwen/Qwen1.5-MoE-A2.7B)", () => {
    const b = parameterCount(arch("qwen1.5-moe-a2.7b"));
    expect(off(b.total, 14.3e9)).toBeLessThan(0.002);
    expect(off(b.activeParameters, 2.7e9)).toBeLessThan(0.005);
  });

  it("DeepSeek-V3: 671B main model, 36.6B activated without the input embedding, MTP apart (README.md and README_WEIGHTS.md of deepseek-ai/DeepSeek-V3)", () => {
    const b = parameterCount(arch("deepseek-v3"));
    expect(off(b.total, 671e9)).toBeLessThan(0.001);
    // README_WEIGHTS: "Activation parameters: 36.6B (including 0.9B for the output Head)"; the paper's "37B activated" rounds it.
    expect(off(b.activeParameters - b.embedding, 36.6e9)).toBeLessThan(0.002);
    // README: 685B on Hugging Face = 671B main + 14B MTP (its layer, eh_proj, norms, and stored copies of the 0.93B embedding and head).
    expect(off(b.total + b.mtp + b.embedding + (b.lmHead || b.embedding), 685e9)).toBeLessThan(0.001);
  });
});

describe("parseModelConfig reads each family's own fields", () => {
  it("Qwen2: biases on q, k, v (not o): 3584 + 2 × 512 per layer", () => {
    const a = arch("qwen2.5-7b");
    expect(a).toMatchObject({ modelType: "qwen2", qkvBias: true, attentionBias: false, numKvHeads: 4, headDim: 128, decoderLayerClass: "Qwen2DecoderLayer" });
    const noBias = parameterCount({ ...a, qkvBias: false });
    expect(parameterCount(a).total - noBias.total).toBe(28 * (3584 + 2 * 512));
  });

  it("Gemma: head_dim given (256), not h/a (3072/16 = 192), and tied embeddings by default", () => {
    const a = arch("gemma-7b");
    expect(a.headDim).toBe(256);
    expect(a.tiedEmbeddings).toBe(true);
    const c = json("gemma-7b");
    delete c.head_dim;
    expect(parseModelConfig(c).headDim).toBe(256); // GemmaConfig's default
  });

  it("Gemma 2: four norms per block, a 4096-token window, an 8192-token context", () => {
    expect(arch("gemma-2-9b")).toMatchObject({ normsPerLayer: 4, slidingWindow: 4096, contextLength: 8192, tiedEmbeddings: true });
  });

  it("Phi-3: fused qkv_proj and gate_up_proj count as separate matrices; the fused ones are its largest projections", () => {
    const a = arch("phi-3-mini-4k");
    const b = parameterCount(a);
    expect(b.perLayer).toBe(4 * 3072 ** 2 + 3 * 3072 * 8192 + 2 * 3072);
    expect(largestLayerParams({ ...a, vocabSize: 1 })).toBe(2 * 3072 * 8192); // gate_up_proj, h × 2I
  });

  it("Mixtral: 8 experts, top-2, every layer; a router of E·h per layer", () => {
    const a = arch("mixtral-8x7b");
    expect(a.moe).toEqual({ numExperts: 8, topK: 2, expertIntermediateSize: 14336, sharedIntermediateSize: 0, sharedExpertGate: false, numMoeLayers: 32 });
    const b = parameterCount(a);
    expect(b.router).toBe(32 * 8 * 4096);
    expect(b.mlp).toBe(0);
    expect(b.total - b.activeParameters).toBe(32 * 6 * 3 * 4096 * 14336); // the 6 experts a token skips, in every layer
  });

  it("Qwen2-MoE: a shared expert with its sigmoid gate Linear(h, 1), and mlp_only_layers keep a dense MLP", () => {
    const a = arch("qwen1.5-moe-a2.7b");
    expect(a.moe).toMatchObject({ numExperts: 60, topK: 4, expertIntermediateSize: 1408, sharedIntermediateSize: 5632, sharedExpertGate: true, numMoeLayers: 24 });
    expect(parameterCount(a).sharedExperts).toBe(24 * (3 * 2048 * 5632 + 2048));
    const c = { ...json("qwen1.5-moe-a2.7b"), mlp_only_layers: [0, 5] };
    const b = parameterCount(parseModelConfig(c));
    expect(parseModelConfig(c).moe!.numMoeLayers).toBe(22);
    expect(b.mlp).toBe(2 * 3 * 2048 * 5632);
    const step2 = parseModelConfig({ ...json("qwen1.5-moe-a2.7b"), decoder_sparse_step: 2 });
    expect(step2.moe!.numMoeLayers).toBe(12); // layers 1, 3, …, 23: (i + 1) % 2 === 0
  });

  it("DeepSeek-V3: MLA, the first 3 layers dense, 256 routed + 1 shared expert, 1 MTP module counted apart", () => {
    const a = arch("deepseek-v3");
    expect(a.mla).toEqual({ qLoraRank: 1536, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 });
    expect(a.moe).toMatchObject({ numExperts: 256, topK: 8, sharedIntermediateSize: 2048, numMoeLayers: 58 });
    const b = parameterCount(a);
    // MLA per layer: q_a 7168·1536 + 1536 + q_b 1536·128·192 + kv_a 7168·576 + 512 + kv_b 512·128·256 + o 128·128·7168
    expect(b.attention / 61).toBe(7168 * 1536 + 1536 + 1536 * 128 * 192 + 7168 * 576 + 512 + 512 * 128 * 256 + 128 * 128 * 7168);
    expect(b.mlp).toBe(3 * 3 * 7168 * 18432);
    expect(b.mtp).toBe(b.perLayer + 2 * 7168 * 7168 + 3 * 7168);
    expect(a.contextLength).toBe(163840);
  });

  it("the ZeRO-3 gathered layer of an MoE model is one layer's experts module (transformers stores a layer's experts as 3-D tensors)", () => {
    expect(largestLayerParams(arch("mixtral-8x7b"))).toBe(8 * 3 * 4096 * 14336);
    expect(largestLayerParams(arch("deepseek-v3"))).toBe(256 * 3 * 7168 * 2048);
  });

  it("refuses top-k above the expert count, and names a missing expert field", () => {
    expect(() => parseModelConfig({ ...json("mixtral-8x7b"), num_experts_per_tok: 9 })).toThrow(/num_experts_per_tok \(9\) must be at most the number of experts \(8\)/);
    const c = json("deepseek-v3");
    delete c.kv_lora_rank;
    expect(() => parseModelConfig(c)).toThrow(/field "kv_lora_rank" is missing/);
    expect(() => parseModelConfig({ ...json("qwen1.5-moe-a2.7b"), mlp_only_layers: "0" })).toThrow(/field "mlp_only_layers" must be a list of layer indices/);
  });

  it("reads the context length: max_position_embeddings, GPT-2's n_positions, and Qwen2's window only with use_sliding_window", () => {
    expect(arch("llama-2-13b").contextLength).toBe(4096);
    expect(arch("gpt2").contextLength).toBe(1024);
    expect(arch("qwen2.5-7b").slidingWindow).toBeNull();
    expect(parseModelConfig({ ...json("qwen2.5-7b"), use_sliding_window: true, sliding_window: 4096 }).slidingWindow).toBe(4096);
  });
});

describe("MoE parameter properties", () => {
  it("property: active ≤ total, equal exactly when k = E, and total − active = (E − k)·3hI_e per MoE layer", () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 12 }),
      fc.integer({ min: 1, max: 4 }).map((x) => 64 * x), fc.integer({ min: 1, max: 512 }),
      (E, k0, layers, firstDense, h, I) => {
        const k = Math.min(k0, E);
        const a = parseModelConfig({ model_type: "deepseek_v3", vocab_size: 1000, hidden_size: h, intermediate_size: 4 * h, num_hidden_layers: layers,
          num_attention_heads: 4, n_routed_experts: E, num_experts_per_tok: k, moe_intermediate_size: I, n_shared_experts: 1, first_k_dense_replace: firstDense,
          q_lora_rank: null, kv_lora_rank: 32, qk_nope_head_dim: 16, qk_rope_head_dim: 8, v_head_dim: 16 });
        const b = parameterCount(a);
        const moeLayers = Math.max(0, layers - firstDense);
        expect(b.activeParameters).toBeLessThanOrEqual(b.total);
        expect(b.total - b.activeParameters).toBe(moeLayers * (E - k) * 3 * h * I);
        expect(b.total).toBe(b.embedding + b.attention + b.mlp + b.experts + b.sharedExperts + b.router + b.norms + b.lmHead);
        expect(Number.isSafeInteger(b.total)).toBe(true);
      }), { seed: 7, numRuns: 200 });
  });
});
