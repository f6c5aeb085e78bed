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
