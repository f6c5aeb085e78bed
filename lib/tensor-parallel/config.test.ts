import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { paddedVocabSize, validTensorParallelSizes, checkTensorParallelSize, tpModelConfig } from "./config.js";
import { parseModelConfig, PRESET_NAMES } from "../memory/index.js";
import { loadPresetText } from "../memory/loadPresetText.js";

describe("paddedVocabSize (Megatron vocab_utils.py)", () => {
  it("pads GPT-2's 50257 to 50304 and Llama-2's 32000 to 32000, 32000, 32256, 32768 for T = 1, 2, 4, 8", () => {
    expect(paddedVocabSize(50257, 1)).toBe(50304); // 393 · 128
    expect([1, 2, 4, 8].map((T) => paddedVocabSize(32000, T))).toEqual([32000, 32000, 32256, 32768]);
  });
  it("is the smallest multiple of 128·T at or above the vocabulary (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 300000 }), fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 256 }), (V, T, m) => {
      const p = paddedVocabSize(V, T, m);
      expect(p % (m * T)).toBe(0);
      expect(p).toBeGreaterThanOrEqual(V);
      expect(p - V).toBeLessThan(m * T);
    }));
  });
  it("names the bad field", () => {
    expect(() => paddedVocabSize(0, 1)).toThrow("vocabSize must be an integer >= 1, got 0");
    expect(() => paddedVocabSize(10, 0)).toThrow("T must be an integer >= 1, got 0");
    expect(() => paddedVocabSize(10, 1, 0)).toThrow("makeVocabSizeDivisibleBy must be an integer >= 1, got 0");
  });
});

describe("validTensorParallelSizes and checkTensorParallelSize (Megatron-LM's rule)", () => {
  const arch = (name: string) => tpModelConfig(parseModelConfig(JSON.parse(loadPresetText(name))));
  it("Llama-2-7B (32 heads, FFN 11008 = 2⁸·43), 13B (40 heads, FFN 13824), 70B (64 heads, 8 KV heads, FFN 28672), Mistral-7B (32 heads, 8 KV, FFN 14336)", () => {
    expect(PRESET_NAMES).toContain("llama-2-70b");
    expect(validTensorParallelSizes(arch("llama-2-7b"))).toEqual([1, 2, 4, 8, 16, 32]);
    expect(validTensorParallelSizes(arch("llama-2-13b"))).toEqual([1, 2, 4, 8]);
    expect(validTensorParallelSizes(arch("llama-2-70b"))).toEqual([1, 2, 4, 8, 16, 32, 64]);
    expect(validTensorParallelSizes(arch("mistral-7b"))).toEqual([1, 2, 4, 8, 16, 32]);
  });
  it("before Megatron commit f7dfb99 (Core ≤ 0.15) T had to divide the KV heads: Llama-2-70B and Mistral-7B stop at T = 8", () => {
    expect(validTensorParallelSizes(arch("llama-2-70b"), 64, { gqaRule: "divide" })).toEqual([1, 2, 4, 8]);
    expect(validTensorParallelSizes(arch("mistral-7b"), 64, { gqaRule: "divide" })).toEqual([1, 2, 4, 8]);
    expect(() => checkTensorParallelSize(arch("mistral-7b"), 16, { gqaRule: "divide" })).toThrow("numKvHeads (8) must be divisible by T (16) (Megatron Core ≤ 0.15, before commit f7dfb99); valid T for this config: 1, 2, 4, 8");
    expect(() => checkTensorParallelSize(arch("mistral-7b"), 16)).not.toThrow();
  });
  it("a model with 4 KV heads refuses T = 7 (the issue's estimate bug), naming the rule's version", () => {
    // Qwen2-7B's shape: 28 heads, 4 KV heads, h = 3584, FFN 18944 = 2⁹·37.
    const qwen = { numHeads: 28, numKvHeads: 4, hiddenSize: 3584, ffnHiddenSize: 18944 };
    expect(() => checkTensorParallelSize(qwen, 7)).toThrow("numKvHeads (4) must be a multiple or a divisor of T (7) (Megatron Core ≥ 0.16, commit f7dfb99); valid T for this config: 1, 2, 4");
    expect(validTensorParallelSizes({ ...qwen, ffnHiddenSize: 28 * 64 })).toEqual([1, 2, 4]); // 14 is no multiple of 4; 28 is, but (28 + 8)·128 = 4608 QKV columns do not split in 28
  });
  it("when T > G the fused QKV width (a + 2G)·d_h must split into T equal blocks", () => {
    const c = { numHeads: 8, numKvHeads: 1, hiddenSize: 8, ffnHiddenSize: 8 }; // (8 + 2)·1 = 10 columns
    expect(validTensorParallelSizes(c)).toEqual([1, 2]);
    expect(() => checkTensorParallelSize(c, 4)).toThrow("the fused QKV width (numHeads + 2·numKvHeads)·headDim = 10 must be divisible by T (4) when T > numKvHeads; valid T for this config: 1, 2");
    expect(validTensorParallelSizes({ ...c, headDim: 2 })).toEqual([1, 2, 4]); // 20 columns
  });
  it("every valid T divides the heads and FFN, the KV heads are a multiple or divisor of it, and the older rule's T are a subset (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 48 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 4096 }), fc.integer({ min: 1, max: 16 }), (a, g, ffn, d) => {
      const divs = Array.from({ length: a }, (_, i) => i + 1).filter((k) => a % k === 0);
      const G = divs[Math.min(g, divs.length) - 1]!, cfg = { numHeads: a, numKvHeads: G, hiddenSize: a * 64, ffnHiddenSize: ffn, headDim: d };
      const now = validTensorParallelSizes(cfg), before = validTensorParallelSizes(cfg, a, { gqaRule: "divide" });
      for (const T of now) {
        expect(a % T).toBe(0);
        expect(ffn % T).toBe(0);
        expect(G % T === 0 || T % G === 0).toBe(true);
      }
      expect(before.every((T) => now.includes(T) && G % T === 0)).toBe(true);
      expect(now.filter((T) => T <= G)).toEqual(before); // the two rules differ only above G
    }));
  });
  it("errors name the field that does not divide", () => {
    const c = { numHeads: 40, hiddenSize: 5120, ffnHiddenSize: 13824 };
    expect(() => checkTensorParallelSize(c, 16)).toThrow("numHeads (40) must be divisible by T (16); valid T for this config: 1, 2, 4, 8");
    expect(() => checkTensorParallelSize({ numHeads: 24, numKvHeads: 8, hiddenSize: 24, ffnHiddenSize: 24 }, 6)).toThrow("numKvHeads (8) must be a multiple or a divisor of T (6)");
    expect(() => checkTensorParallelSize({ numHeads: 4, hiddenSize: 6, ffnHiddenSize: 8 }, 4)).toThrow("hiddenSize (6) must be a multiple of numHeads (4) when headDim is not given");
    expect(() => checkTensorParallelSize({ numHeads: 32, hiddenSize: 4096, ffnHiddenSize: 11008 }, 64)).toThrow("numHeads (32) must be divisible by T (64)");
    expect(() => checkTensorParallelSize({ numHeads: 4, hiddenSize: 8, ffnHiddenSize: 6 }, 4)).toThrow("ffnHiddenSize (6) must be divisible by T (4)");
    expect(() => checkTensorParallelSize({ numHeads: 0, hiddenSize: 8, ffnHiddenSize: 6 }, 1)).toThrow("numHeads must be an integer >= 1, got 0");
    expect(() => checkTensorParallelSize({ numHeads: 8, numKvHeads: 3, hiddenSize: 8, ffnHiddenSize: 8 }, 1)).toThrow("numKvHeads (3) must divide numHeads (8)");
    expect(() => checkTensorParallelSize(c, 1, { gqaRule: "x" as never })).toThrow('gqaRule must be "sub-shard" or "divide", got "x"');
    expect(() => validTensorParallelSizes(c, 0)).toThrow("maxT must be an integer >= 1, got 0");
  });
  it("tpModelConfig reads a parsed config.json (Llama-2-70B)", () => {
    expect(arch("llama-2-70b")).toEqual({ numHeads: 64, numKvHeads: 8, hiddenSize: 8192, ffnHiddenSize: 28672, headDim: 128 });
  });
});
