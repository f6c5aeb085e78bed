import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { tpSizesForPaddedVocab } from "./tpSizesForPaddedVocab.js";
import { paddedVocabSize } from "./config.js";

describe("tpSizesForPaddedVocab(vocabSize, paddedRows)", () => {
  it("worked example: GPT-2's 50,304 rows come from T = 1, 3, 131 or 393", () => {
    expect(tpSizesForPaddedVocab(50257, 50304)).toEqual([1, 3, 131, 393]);
    for (const T of [1, 3, 131, 393]) expect(paddedVocabSize(50257, T)).toBe(50304);
  });
  it("Llama-2's 32,000: unpadded at T = 1, 2, 5, …; 32,768 rows from T = 8 … 256", () => {
    expect(tpSizesForPaddedVocab(32000, 32000)).toEqual([1, 2, 5, 10, 25, 50, 125, 250]);
    expect(tpSizesForPaddedVocab(32000, 32768)).toEqual([8, 16, 32, 64, 128, 256]);
  });
  it("edge cases: rows below the vocabulary or not a multiple of m, another m, bad input", () => {
    expect(tpSizesForPaddedVocab(32000, 31999)).toEqual([]);
    expect(tpSizesForPaddedVocab(32000, 32001)).toEqual([]);
    expect(tpSizesForPaddedVocab(100, 192, 64)).toEqual([3]);
    expect(() => tpSizesForPaddedVocab(0, 128)).toThrow(/^vocabSize must be an integer >= 1, got 0$/);
    expect(() => tpSizesForPaddedVocab(10, 128, 0)).toThrow(/makeVocabSizeDivisibleBy/);
  });
  it("property: T is in the answer exactly when its padding gives the rows", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 200000 }), fc.integer({ min: 1, max: 64 }), fc.constantFrom(1, 64, 128), (v, T, m) => {
      const rows = paddedVocabSize(v, T, m);
      const got = tpSizesForPaddedVocab(v, rows, m);
      expect(got).toContain(T);
      for (const t of got) expect(paddedVocabSize(v, t, m)).toBe(rows);
    }), { numRuns: 300, seed: 31 });
  });
});
