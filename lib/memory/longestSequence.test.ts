import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { longestSequence } from "./longestSequence.js";
import { activationBytes, type Recompute } from "./activationBytes.js";

const gpt3 = { microBatch: 1, hiddenSize: 12288, numHeads: 96, numLayers: 96, tensorParallel: 8, sequenceParallel: true };
const GiB80 = 80 * 2 ** 30;

describe("longestSequence(o, budgetBytes)", () => {
  it("worked example: GPT-3 175B (t = 8, SP, selective) fills 80 GiB at s = 17,133", () => {
    const s = longestSequence({ ...gpt3, recompute: "selective" }, GiB80);
    expect(s).toBe(17_133);
    expect(activationBytes({ ...gpt3, recompute: "selective", seqLen: s })).toBeLessThanOrEqual(GiB80);
    expect(activationBytes({ ...gpt3, recompute: "selective", seqLen: s + 1 })).toBeGreaterThan(GiB80);
  });
  it("selective recomputation buys the paper's factor: without it the s² term caps s far lower; full recomputation keeps only 2sbh/t", () => {
    const none = longestSequence({ ...gpt3, recompute: "none" }, GiB80);
    const full = longestSequence({ ...gpt3, recompute: "full" }, GiB80);
    expect(none).toBeLessThan(17_133 / 4);
    expect(full).toBe(Math.floor(GiB80 * 8 / (96 * 2 * 12288))); // 2sbh/t per layer with SP: linear in s
  });
  it("edge cases: exactly at the budget, nothing fits, bad input", () => {
    const o = { ...gpt3, numLayers: 2, recompute: "none" as Recompute };
    const b = activationBytes({ ...o, seqLen: 1000 });
    expect(longestSequence(o, b)).toBe(1000);
    expect(longestSequence(o, b - 1)).toBe(999);
    expect(longestSequence(o, 0)).toBe(0);
    expect(() => longestSequence(o, -1)).toThrow(/^budgetBytes must be a safe integer >= 0, got -1$/);
    expect(() => longestSequence({ ...o, tensorParallel: 7 }, 1e9)).toThrow(/tensorParallel \(7\) must divide numHeads \(96\)/);
  });
  it("property: the answer fits and one more token does not", () => {
    const setting = fc.record({
      microBatch: fc.integer({ min: 1, max: 8 }), heads: fc.integer({ min: 1, max: 16 }), headDim: fc.integer({ min: 1, max: 128 }), numLayers: fc.integer({ min: 1, max: 40 }),
      t: fc.constantFrom(1, 2, 4), sequenceParallel: fc.boolean(), recompute: fc.constantFrom("none", "selective", "full") as fc.Arbitrary<Recompute>, budget: fc.integer({ min: 0, max: 2 ** 40 }),
    });
    fc.assert(fc.property(setting, (r) => {
      const o = { microBatch: r.microBatch, hiddenSize: 4 * r.heads * r.headDim, numHeads: 4 * r.heads, numLayers: r.numLayers, tensorParallel: r.t, sequenceParallel: r.sequenceParallel, recompute: r.recompute };
      const s = longestSequence(o, r.budget);
      if (s > 0) expect(activationBytes({ ...o, seqLen: s })).toBeLessThanOrEqual(r.budget);
      expect(activationBytes({ ...o, seqLen: s + 1 })).toBeGreaterThan(r.budget);
    }), { numRuns: 300, seed: 9 });
  });
});
