import { describe, expect, it } from "vitest";
import { loraEstimate } from "./loraEstimate.js";
import { parseModelConfig } from "./parseModelConfig.js";
import { loadPresetText } from "./loadPresetText.js";

const llama7 = parseModelConfig(loadPresetText("llama-2-7b"));

describe("loraEstimate(arch, rank, targets)", () => {
  it("matches PEFT's printout for Llama-2-7B, r = 8 on q_proj and v_proj: 4,194,304 trainable of 6,742,609,920 (0.0622%)", () => {
    const r = loraEstimate(llama7, 8);
    expect(r.loraParams).toBe(4_194_304);
    expect(r.baseParams + r.loraParams).toBe(6_742_609_920);
    expect((r.trainableFraction * 100).toFixed(4)).toBe("0.0622");
  });

  it("counts GQA's narrower K and V (Mistral: k_proj is h × 1024)", () => {
    const mistral = parseModelConfig(loadPresetText("mistral-7b"));
    expect(loraEstimate(mistral, 4, ["k_proj"]).loraParams).toBe(32 * 4 * (4096 + 1024));
  });

  it("keeps gradients and optimizer states for the adapters only", () => {
    const r = loraEstimate(llama7, 8, ["q_proj", "v_proj"], "bf16", "adamw");
    expect(r.bytes.gradients).toBe(2 * r.loraParams);
    expect(r.bytes.optimizerStates).toBe(12 * r.loraParams);
    expect(r.bytes.parameters).toBe(2 * (r.baseParams + r.loraParams));
  });

  it("rejects a bad rank, an unknown target and a non-Llama model", () => {
    expect(() => loraEstimate(llama7, 0)).toThrow(/rank must be an integer >= 1, got 0/);
    // @ts-expect-error a wrong target on purpose
    expect(() => loraEstimate(llama7, 8, ["c_attn"])).toThrow(/unknown LoRA target "c_attn"/);
    expect(() => loraEstimate(parseModelConfig(loadPresetText("gpt2")), 8)).toThrow(/Llama-style/);
  });
});
