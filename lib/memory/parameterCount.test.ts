import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { parseModelConfig } from "./parseModelConfig.js";
import { largestLayerParams, parameterCount } from "./parameterCount.js";
import { loadPresetText } from "./loadPresetText.js";

const arch = (name: string) => parseModelConfig(loadPresetText(name));

describe("parameterCount(arch)", () => {
  // Published counts: Llama 2 and Mistral model cards / `model.num_parameters()`,
  // GPT-2 small 124,439,808 (HF), Pythia-70M 70,426,624 (Biderman et al. 2023, Table 1 "total params").
  it.each([
    ["llama-2-13b", 13_015_864_320],
    ["llama-2-7b", 6_738_415_616],
    ["llama-2-70b", 68_976_648_192],
    ["mistral-7b", 7_241_732_096],
    ["gpt2", 124_439_808],
    ["pythia-70m", 70_426_624],
  ])("counts %s from its real config.json as %d", (name, published) => {
    expect(parameterCount(arch(name)).total).toBe(published);
  });

  it("worked example: Llama-2-13B per layer is 4h² + 3hI + 2h", () => {
    const b = parameterCount(arch("llama-2-13b"));
    expect(b.perLayer).toBe(4 * 5120 ** 2 + 3 * 5120 * 13824 + 2 * 5120);
    expect(b.embedding).toBe(32000 * 5120);
    expect(b.lmHead).toBe(32000 * 5120);
  });

  it("tying the embeddings removes exactly one V·h matrix", () => {
    const untied = arch("llama-2-7b");
    const tied = { ...untied, tiedEmbeddings: true };
    expect(parameterCount(untied).total - parameterCount(tied).total).toBe(32000 * 4096);
  });

  it("GQA: Llama-2-70B's 8 KV heads make K and V 8× narrower than Q", () => {
    const gqa = arch("llama-2-70b");
    const mha = { ...gqa, numKvHeads: gqa.numHeads };
    const d = gqa.headDim;
    expect(parameterCount(mha).total - parameterCount(gqa).total).toBe(80 * 2 * 8192 * (64 - 8) * d);
  });

  it("property: total is the sum of its parts and L·perLayer + the rest", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 48 }), fc.integer({ min: 1, max: 5000 }), fc.boolean(), fc.constantFrom("llama", "gpt2", "gpt_neox"),
        (headDim, kvHeads, group, layers, vocab, tied, family) => {
          const heads = kvHeads * group;
          const h = heads * headDim;
          const cfg = family === "gpt2"
            ? { model_type: "gpt2", vocab_size: vocab, n_embd: h, n_layer: layers, n_head: heads, n_positions: 64, tie_word_embeddings: tied }
            : { model_type: family, vocab_size: vocab, hidden_size: h, intermediate_size: 3 * h, num_hidden_layers: layers,
                num_attention_heads: heads, num_key_value_heads: kvHeads, tie_word_embeddings: tied };
          const b = parameterCount(parseModelConfig(cfg));
          expect(b.total).toBe(b.embedding + b.positions + b.attention + b.mlp + b.norms + b.lmHead);
          expect(b.attention + b.mlp + b.norms).toBe(layers * b.perLayer + (family === "llama" ? h : 2 * h));
          expect(Number.isSafeInteger(b.total)).toBe(true);
        },
      ),
      { seed: 2, numRuns: 200 },
    );
  });
});

describe("largestLayerParams(arch)", () => {
  it("is the embedding for Llama-2-13B (V·h = 163,840,000)", () => {
    expect(largestLayerParams(arch("llama-2-13b"))).toBe(32000 * 5120);
  });
  it("is the MLP matrix when it is wider than the embedding", () => {
    const a = { ...arch("llama-2-7b"), vocabSize: 10 };
    expect(largestLayerParams(a)).toBe(4096 * 11008);
  });
});

describe("parameterCount against Narayanan et al. 2021 (Megatron-LM, SC21), §5.1 Eq. 2", () => {
  // P = 12lh²(1 + 13/(12h) + (V + s)/(12lh)) = 12lh² + 13lh + (V + s)h: GPT layers with biases, learned positions, tied embeddings.
  const eq2 = (l: number, h: number, V: number, s: number) => 12 * l * h * h + 13 * l * h + (V + s) * h;
  it.each([
    ["GPT-2 124M (its config.json)", 12, 768, 50257, 1024],
    ["GPT-3 175B (V = 51200, s = 2048, §5.1)", 96, 12288, 51200, 2048],
  ])("%s: Eq. 2 plus the final LayerNorm (2h), which Eq. 2 leaves out", (_, l, h, V, s) => {
    const arch = parseModelConfig(JSON.stringify({ model_type: "gpt2", vocab_size: V, n_embd: h, n_layer: l, n_head: 12, n_positions: s }));
    expect(parameterCount(arch).total).toBe(eq2(l, h, V, s) + 2 * h);
  });
  it("GPT-3's Eq. 2 count rounds to the 174.6 billion of Table 2 (PTD against ZeRO-3)", () => {
    expect(Math.round(eq2(96, 12288, 51200, 2048) / 1e8) / 10).toBe(174.6);
  });
});
