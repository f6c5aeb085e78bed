import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { activationBytes, activationBytesPerLayer } from "./activationBytes.js";

// GPT-3 175B in Korthikanti et al. 2022 (Table 3): s = 2048, h = 12288, a = 96, t = 8, micro-batch 1.
const gpt3 = { seqLen: 2048, microBatch: 1, hiddenSize: 12288, numHeads: 96 };
const [s, b, h, a, t] = [2048, 1, 12288, 96, 8];
const sbh = s * b * h;

describe("activationBytesPerLayer(options)", () => {
  it("rounds once, at the end, in exact integers: sbh(34 + 5as/h) in floating point would give 3949.0000000000005 → 3950", () => {
    expect(116 * (34 + 5 / 116)).toBeGreaterThan(3949); // the float trap the exact count avoids
    expect(activationBytesPerLayer({ seqLen: 1, microBatch: 1, hiddenSize: 116, numHeads: 1 })).toBe(3949);
    // t = 3, sbh = 3, a = 3: (10·3·sbh + 24·sbh + 5as²b) / 3, one division
    expect(activationBytesPerLayer({ seqLen: 1, microBatch: 1, hiddenSize: 3, numHeads: 3, tensorParallel: 3 })).toBe(Math.ceil((10 * 3 * 3 + 24 * 3 + 5 * 3) / 3));
  });

  it("has 5as/h = 80 for GPT-3 175B (Korthikanti §5), against 34 for the rest", () => {
    // The 5as/h term is what selective recomputation drops (t = 1); the paper prints 80 for GPT-3 175B.
    expect(activationBytesPerLayer(gpt3) - activationBytesPerLayer({ ...gpt3, recompute: "selective" })).toBe(80 * sbh);
    expect(activationBytesPerLayer(gpt3)).toBe(sbh * (34 + (5 * a * s) / h));
  });

  // Korthikanti Table 2, each row as printed, evaluated at the GPT-3 175B setting.
  it.each([
    ["tensor parallel (baseline)", { tensorParallel: t }, sbh * (10 + 24 / t + (5 * a * s) / (h * t))],
    ["tensor + sequence parallel", { tensorParallel: t, sequenceParallel: true }, sbh * (34 / t + (5 * a * s) / (h * t))],
    ["tensor parallel + selective recompute", { tensorParallel: t, recompute: "selective" as const }, sbh * (10 + 24 / t)],
    ["tensor + sequence parallel + selective recompute", { tensorParallel: t, sequenceParallel: true, recompute: "selective" as const }, sbh * (34 / t)],
    ["full recompute", { tensorParallel: t, recompute: "full" as const }, sbh * 2],
  ])("matches Table 2, %s", (_name, extra, expected) => {
    expect(activationBytesPerLayer({ ...gpt3, ...extra })).toBe(expected);
  });

  it("selective recomputation saves 70% with sequence parallelism, and both together cut the TP baseline by more than 5× (paper's figures)", () => {
    const sp = activationBytesPerLayer({ ...gpt3, tensorParallel: t, sequenceParallel: true });
    const spSel = activationBytesPerLayer({ ...gpt3, tensorParallel: t, sequenceParallel: true, recompute: "selective" });
    expect(Math.round((1 - spSel / sp) * 100)).toBe(70);
    const base = activationBytesPerLayer({ ...gpt3, tensorParallel: t });
    expect(base / spSel).toBeGreaterThan(5);
  });

  it("with 4-byte activations doubles every stored tensor but not the 1-byte dropout masks", () => {
    const small = { seqLen: 16, microBatch: 2, hiddenSize: 64, numHeads: 4 };
    const sbh2 = 16 * 2 * 64;
    expect(activationBytesPerLayer({ ...small, bytesPerElement: 4 })).toBe(66 * sbh2 + 9 * 4 * 16 * 16 * 2);
    expect(activationBytesPerLayer(small)).toBe(34 * sbh2 + 5 * 4 * 16 * 16 * 2);
  });

  it("rejects bad sizes naming the field, and a TP size that does not divide the heads", () => {
    expect(() => activationBytesPerLayer({ ...gpt3, seqLen: 0 })).toThrow(/seqLen must be an integer >= 1, got 0/);
    expect(() => activationBytesPerLayer({ ...gpt3, microBatch: 1.5 })).toThrow(/microBatch/);
    expect(() => activationBytesPerLayer({ ...gpt3, tensorParallel: 7 })).toThrow(/tensorParallel \(7\) must divide numHeads \(96\)/);
  });

  it("property: none ≥ selective ≥ full, sequence parallelism never adds memory, results are integers", () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 8192 }), fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: 64 }), fc.constantFrom(1, 2, 4, 8), fc.integer({ min: 1, max: 256 }),
      (seqLen, microBatch, heads, tp, headDim) => {
        const numHeads = heads * tp;
        const o = { seqLen, microBatch, hiddenSize: numHeads * headDim, numHeads, tensorParallel: tp };
        const none = activationBytesPerLayer(o);
        const sel = activationBytesPerLayer({ ...o, recompute: "selective" });
        const full = activationBytesPerLayer({ ...o, recompute: "full" });
        expect(none).toBeGreaterThanOrEqual(sel);
        expect(sel).toBeGreaterThanOrEqual(full);
        expect(activationBytesPerLayer({ ...o, sequenceParallel: true })).toBeLessThanOrEqual(none);
        for (const v of [none, sel, full]) expect(Number.isSafeInteger(v)).toBe(true);
      }), { seed: 5, numRuns: 200 });
  });
});

describe("activationBytes(options)", () => {
  it("worked example: Llama-2-13B, micro-batch 8, seq 2048, full recompute = L · 2sbh = 6.25 GiB", () => {
    const bytes = activationBytes({ seqLen: 2048, microBatch: 8, hiddenSize: 5120, numHeads: 40, numLayers: 40, recompute: "full" });
    expect(bytes).toBe(40 * 2 * 2048 * 8 * 5120);
    expect(bytes / 2 ** 30).toBe(6.25);
  });
  it("rejects zero layers", () => {
    expect(() => activationBytes({ ...gpt3, numLayers: 0 })).toThrow(/numLayers must be an integer >= 1/);
  });
});
