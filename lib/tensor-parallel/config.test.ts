import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { paddedVocabSize, validTensorParallelSizes, checkTensorParallelSize } from "./config.js";
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

describe("validTensorParallelSizes", () => {
  const arch = (name: string) => {
    const a = parseModelConfig(JSON.parse(loadPresetText(name)));
    return { numHeads: a.numHeads, numKvHeads: a.numKvHeads, hiddenSize: a.hiddenSize, ffnHiddenSize: a.intermediateSize };
  };
  it("Llama-2-7B (32 heads, FFN 11008 = 2⁸·43), 13B (40 heads, FFN 13824), 70B (64 heads, 8 KV heads, FFN 28672), Mistral-7B (32 heads, 8 KV, FFN 14336)", () => {
    expect(PRESET_NAMES).toContain("llama-2-70b");
    expect(validTensorParallelSizes(arch("llama-2-7b"))).toEqual([1, 2, 4, 8, 16, 32]);
    expect(validTensorParallelSizes(arch("llama-2-13b"))).toEqual([1, 2, 4, 8]);
    expect(validTensorParallelSizes(arch("llama-2-70b"))).toEqual([1, 2, 4, 8, 16, 32, 64]);
    expect(validTensorParallelSizes(arch("mistral-7b"))).toEqual([1, 2, 4, 8, 16, 32]);
  });
  it("every valid T divides the heads, hidden and FFN sizes, and the KV heads are a multiple or divisor of it (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 48 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 4096 }), (a, g, ffn) => {
      const G = Math.max(1, Math.floor(a / g)), cfg = { numHeads: a, numKvHeads: G, hiddenSize: a * 64, ffnHiddenSize: ffn };
      for (const T of validTensorParallelSizes(cfg)) {
        expect(a % T).toBe(0);
        expect(ffn % T).toBe(0);
        expect(G % T === 0 || T % G === 0).toBe(true);
      }
    }));
  });
  it("errors name the field that does not divide", () => {
    const c = { numHeads: 40, hiddenSize: 5120, ffnHiddenSize: 13824 };
    expect(() => checkTensorParallelSize(c, 16)).toThrow("numHeads (40) must be divisible by T (16); valid T for this config: 1, 2, 4, 8");
    expect(() => checkTensorParallelSize({ numHeads: 24, numKvHeads: 8, hiddenSize: 24, ffnHiddenSize: 24 }, 6)).toThrow("numKvHeads (8) must be a multiple or a divisor of T (6)");
    expect(() => checkTensorParallelSize({ numHeads: 4, hiddenSize: 6, ffnHiddenSize: 8 }, 4)).toThrow("hiddenSize (6) must be divisible by T (4)");
    expect(() => checkTensorParallelSize({ numHeads: 32, hiddenSize: 4096, ffnHiddenSize: 11008 }, 64)).toThrow("numHeads (32) must be divisible by T (64)");
    expect(() => checkTensorParallelSize({ numHeads: 4, hiddenSize: 8, ffnHiddenSize: 6 }, 4)).toThrow("ffnHiddenSize (6) must be divisible by T (4)");
    expect(() => checkTensorParallelSize({ numHeads: 0, hiddenSize: 8, ffnHiddenSize: 6 }, 1)).toThrow("numHeads must be an integer >= 1, got 0");
  });
});
