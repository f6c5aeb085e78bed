import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { activeParameters, moeMemoryPerGpu, moeParameterSplit } from "./moeMemory.js";
import { parameterCount, parseModelConfig } from "../memory/index.js";
import { loadPresetText } from "../memory/loadPresetText.js";

// Routed experts from the published configs: layers × E × 3 (gate, up, down) × h × I_e
const MIXTRAL_EXPERTS = 32 * 8 * 3 * 4096 * 14336; // Mixtral-8x7B config.json: 32 layers, 8 experts, hidden 4096, intermediate 14336
const DEEPSEEK_V3_EXPERTS = 58 * 256 * 3 * 7168 * 2048; // DeepSeek-V3 config.json: 61 layers, first 3 dense, 256 routed experts, hidden 7168, moe_intermediate 2048

describe("activeParameters", () => {
  it("published figures: Mixtral-8x7B 46.7B total → 12.9B active; DeepSeek-V3 671B total → 37B activated", () => {
    // Mixtral's total as Hugging Face counts it (46,702,792,704; Jiang et al. 2024: "47B", "13B active")
    expect(activeParameters({ totalParams: 46702792704, expertParams: MIXTRAL_EXPERTS, numExperts: 8, topK: 2 })).toBe(12879925248);
    // DeepSeek-V3 report §1: 671B total, 37B activated per token (k = 8 of 256; the shared expert is dense)
    const a = activeParameters({ totalParams: 671e9, expertParams: DEEPSEEK_V3_EXPERTS, numExperts: 256, topK: 8 });
    expect(Math.abs(a - 37e9)).toBeLessThan(1e9);
  });
  it("activeParameters is the total when k = E and the dense part when no expert is active (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e12 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 512 }), (total, share, E) => {
      const experts = Math.floor(total * share);
      expect(activeParameters({ totalParams: total, expertParams: experts, numExperts: E, topK: E })).toBe(total);
      expect(activeParameters({ totalParams: total, expertParams: experts, numExperts: E, topK: 1 })).toBeCloseTo(total - experts + experts / E, -1);
    }));
  });
  it("activeParameters rejects inconsistent splits", () => {
    expect(() => activeParameters({ totalParams: 40, expertParams: 50, numExperts: 8, topK: 2 })).toThrow("expertParams (50) must be between 0 and totalParams (40)");
    expect(() => activeParameters({ totalParams: 40, expertParams: 10, numExperts: 8, topK: 9 })).toThrow("topK must be an integer in [1, numExperts = 8], got 9");
  });
});

describe("moeParameterSplit", () => {
  it("moeParameterSplit of the shipped Mixtral-8x7B and DeepSeek-V3 configs: the routed experts as the config's shapes give them, and the published active counts", () => {
    const mixtral = moeParameterSplit(parseModelConfig(JSON.parse(loadPresetText("mixtral-8x7b"))));
    expect(mixtral).toEqual({ totalParams: 46702792704, expertParams: MIXTRAL_EXPERTS, numExperts: 8, topK: 2 });
    const ds = parseModelConfig(JSON.parse(loadPresetText("deepseek-v3")));
    const split = moeParameterSplit(ds);
    expect(split.expertParams).toBe(DEEPSEEK_V3_EXPERTS);
    // the same active count as lib/memory's own (two routes to one number), and DeepSeek-V3's published 37B
    expect(activeParameters(split)).toBe(parameterCount(ds).activeParameters);
    expect(Math.abs(activeParameters(split) - 37e9)).toBeLessThan(1e9);
  });
  it("moeParameterSplit refuses a dense model", () => {
    expect(() => moeParameterSplit(parseModelConfig(JSON.parse(loadPresetText("llama-2-7b"))))).toThrow('the model has no routed experts (model_type "llama")');
  });
});

describe("moeMemoryPerGpu", () => {
  const mixtral = { totalParams: 46702792704, expertParams: MIXTRAL_EXPERTS, numExperts: 8, topK: 2 };
  it("moeMemoryPerGpu worked example: Mixtral-8x7B on 8 GPUs with EP 8 keeps one expert of each layer and the whole dense part per GPU", () => {
    const m = moeMemoryPerGpu(mixtral, { tp: 1, pp: 1, ep: 8, dp: 8 });
    expect(m.expertParams).toBe(MIXTRAL_EXPERTS / 8);
    expect(m.denseParams).toBe(46702792704 - MIXTRAL_EXPERTS);
    expect(m.expertDp).toBe(1);
    expect(m.totalBytes).toBe((m.expertParams + m.denseParams) * 16); // bf16 + AdamW: 2 + 2 + 12
  });
  it("moeMemoryPerGpu: the distributed optimizer shards expert states over the expert-data-parallel group, dense states over dp", () => {
    const m = moeMemoryPerGpu(mixtral, { tp: 1, pp: 1, ep: 4, dp: 16, distributedOptimizer: true });
    expect(m.expertDp).toBe(4);
    expect(m.optimizerBytes).toBeCloseTo((m.denseParams / 16 + m.expertParams / 4) * 12, 0);
  });
  it("moeMemoryPerGpu rejects layouts whose experts do not regroup the same ranks", () => {
    expect(() => moeMemoryPerGpu(mixtral, { tp: 1, pp: 1, ep: 8, dp: 4 })).toThrow("dp·tp (4) must be divisible by etp·ep = 8");
  });
});
