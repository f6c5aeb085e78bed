import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { attentionFlopShare } from "./attentionFlopShare.js";

describe("attentionFlopShare", () => {
  it("attentionFlopShare gives about 6% for Llama-2-13B's layer at s = 2048", () => {
    // h = 5120, I = 13824, 40 heads (config.json of meta-llama/Llama-2-13b-hf). By hand:
    // QKᵀ + PV = 4·2048·5120 = 41,943,040; projections 8·5120² = 209,715,200; SwiGLU 6·5120·13824 = 424,673,280.
    const r = attentionFlopShare({ hidden: 5120, intermediate: 13824, heads: 40, seqLen: 2048 });
    expect(r.attention).toBe(41_943_040);
    expect(r.projections).toBe(209_715_200);
    expect(r.mlp).toBe(424_673_280);
    expect(r.share).toBeCloseTo(41_943_040 / 676_331_520, 12);
    expect(r.share).toBeGreaterThan(0.06);
    expect(r.share).toBeLessThan(0.065);
  });
  it("attentionFlopShare equals Narayanan et al.'s 24h² + 4sh per token for a GPT layer (I = 4h, no gating)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 4096 }), fc.integer({ min: 1, max: 65536 }), (h, s) => {
      const r = attentionFlopShare({ hidden: h, intermediate: 4 * h, heads: 1, seqLen: s, gatedMlp: false });
      return r.total === 24 * h * h + 4 * s * h && r.attention === 4 * s * h;
    }), { seed: 3, numRuns: 200 });
  });
  it("attentionFlopShare: the projections and the MLP are twice the layer's weights (2 FLOPs per weight per token)", () => {
    // Llama-2-70B: h = 8192, I = 28672, 64 heads, 8 KV heads. Weights: q, o 8192²; k, v 8192·1024; MLP 3·8192·28672.
    const r = attentionFlopShare({ hidden: 8192, intermediate: 28672, heads: 64, kvHeads: 8, seqLen: 4096 });
    expect(r.projections + r.mlp).toBe(2 * (2 * 8192 * 8192 + 2 * 8192 * 1024 + 3 * 8192 * 28672));
  });
  it("attentionFlopShare grows with the sequence length", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 100000 }), (s) =>
      attentionFlopShare({ hidden: 512, intermediate: 1376, heads: 8, seqLen: s + 1 }).share > attentionFlopShare({ hidden: 512, intermediate: 1376, heads: 8, seqLen: s }).share), { seed: 4 });
  });
  it("attentionFlopShare throws a RangeError naming the field", () => {
    expect(() => attentionFlopShare({ hidden: 0, intermediate: 1, heads: 1, seqLen: 1 })).toThrow(RangeError);
    expect(() => attentionFlopShare({ hidden: 0, intermediate: 1, heads: 1, seqLen: 1 })).toThrow("hidden must be an integer >= 1, got 0");
    expect(() => attentionFlopShare({ hidden: 8, intermediate: 1, heads: 40, kvHeads: 3, seqLen: 1 })).toThrow("kvHeads must divide heads, got 3 and 40");
  });
});
