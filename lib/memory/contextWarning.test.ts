import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { contextWarning } from "./contextWarning.js";
import { parseModelConfig } from "./parseModelConfig.js";
import { loadPresetText } from "./loadPresetText.js";
import type { PresetName } from "./presets.js";

const arch = (n: PresetName) => parseModelConfig(loadPresetText(n));

describe("contextWarning(arch, seqLen)", () => {
  it("warns, without refusing, for a rotary model past max_position_embeddings (issue 27: 1,000,000 tokens on a 4,096-token Llama 2)", () => {
    const w = contextWarning(arch("llama-2-7b"), 1_000_000)!;
    expect(w.hard).toBe(false);
    expect(w.message).toMatch(/^1,000,000 tokens are beyond the model's context of 4,096 tokens \(max_position_embeddings, 244× it\)/);
  });

  it("is a hard limit for GPT-2's learned position table, and silent within the context", () => {
    expect(contextWarning(arch("gpt2"), 1025)!.hard).toBe(true);
    expect(contextWarning(arch("gpt2"), 1024)).toBeNull();
    expect(contextWarning(arch("qwen2.5-7b"), 131072)).toBeNull();
  });

  it("mentions a sliding window where the model has one (Gemma 2: 4,096 of 8,192)", () => {
    expect(contextWarning(arch("gemma-2-9b"), 16384)!.message).toMatch(/Its 4,096-token sliding window limits what each token attends to/);
  });

  it("property: null exactly when seqLen ≤ the context", () => {
    const a = arch("mistral-7b");
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), (s) => { expect(contextWarning(a, s) === null).toBe(s <= a.contextLength!); }), { seed: 4 });
  });
});
