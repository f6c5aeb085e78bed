import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { loraConfigsFor, LORA_TARGETS } from "./loraConfigsFor.js";
import { loraEstimate } from "./loraEstimate.js";
import { parseModelConfig } from "./parseModelConfig.js";
import { loadPresetText } from "./loadPresetText.js";

const llama7b = parseModelConfig(loadPresetText("llama-2-7b"));
const mistral = parseModelConfig(loadPresetText("mistral-7b"));

describe("loraConfigsFor(arch, trainable)", () => {
  it("worked example: PEFT's 4,194,304 on Llama-2-7B comes from 11 configurations, its default (r = 8 on q_proj, v_proj) among them", () => {
    const got = loraConfigsFor(llama7b, 4_194_304);
    expect(got).toHaveLength(11);
    expect(got[0]).toEqual({ rank: 4, targets: ["q_proj", "k_proj", "v_proj", "o_proj"] });
    expect(got).toContainEqual({ rank: 8, targets: ["q_proj", "v_proj"] });
    expect(got.at(-1)).toEqual({ rank: 16, targets: ["o_proj"] });
  });
  it("grouped-query attention makes k_proj and v_proj narrower (Mistral-7B: rank 13 on q_proj alone)", () => {
    const got = loraConfigsFor(mistral, 3_407_872);
    expect(got).toContainEqual({ rank: 13, targets: ["q_proj"] });
    // k_proj and v_proj are 4096 → 1024 here: without GQA they would be as wide as q_proj, and the list would differ
    expect(loraConfigsFor({ ...mistral, numKvHeads: mistral.numHeads }, 3_407_872)).not.toEqual(got);
  });
  it("edge cases: 0 and unreachable counts give none, maxRank bounds the search, bad input", () => {
    expect(loraConfigsFor(llama7b, 0)).toEqual([]);
    expect(loraConfigsFor(llama7b, 4_194_305)).toEqual([]);
    expect(loraConfigsFor(llama7b, 4_194_304, 8).every((c) => c.rank <= 8)).toBe(true);
    expect(() => loraConfigsFor(llama7b, -1)).toThrow(/^trainable must be a safe integer >= 0, got -1$/);
    expect(() => loraConfigsFor(parseModelConfig(loadPresetText("gpt2")), 10)).toThrow(/Llama-style/);
  });
  it("property: every configuration gives the count (loraEstimate), and the count of a random configuration is found", () => {
    const conf = fc.tuple(fc.integer({ min: 1, max: 64 }), fc.subarray([...LORA_TARGETS], { minLength: 1 }), fc.constantFrom(llama7b, mistral));
    fc.assert(fc.property(conf, ([rank, targets, arch]) => {
      const n = loraEstimate(arch, rank, targets).loraParams;
      const got = loraConfigsFor(arch, n);
      expect(got).toContainEqual({ rank, targets });
      for (const c of got) expect(loraEstimate(arch, c.rank, c.targets).loraParams).toBe(n);
    }), { numRuns: 200, seed: 13 });
  });
});
