import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { sampleBatch, concatBatches } from "./sampler.js";
import { buildVocab } from "./buildVocab.js";
import { IGNORE_INDEX } from "./crossEntropy.js";
import { mulberry32 } from "../random.js";
import { corpus } from "./train.js";

describe("sampleBatch / buildVocab / corpus", () => {
  it("buildVocab sorts characters and round-trips encode/decode", () => {
    const v = buildVocab("abca");
    expect(v.chars).toEqual(["a", "b", "c"]);
    expect(Array.from(v.encode("cab"))).toEqual([2, 0, 1]);
    expect(v.decode(v.encode("abcabc"))).toBe("abcabc");
    expect(() => v.encode("z")).toThrow(/character "z" is not in the vocabulary/);
    expect(() => buildVocab("")).toThrow(/text must not be empty/);
  });
  it("corpus() ships Shakespeare's sonnets under 200 KB", () => {
    const { text, vocab, tokens } = corpus();
    expect(text).toContain("Shall I compare thee to a summer's day?");
    expect(new TextEncoder().encode(text).length).toBeLessThan(200_000);
    expect(tokens.length).toBe(text.length);
    expect(vocab.size).toBeGreaterThan(26);
  });
  it("sampleBatch rows predict the character that follows their context in the text", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000 }), (seed) => {
      const text = "the quick brown fox jumps over the lazy dog";
      const v = buildVocab(text), tokens = v.encode(text);
      const b = sampleBatch(tokens, { batchSize: 3, seqLen: 5, contextLength: 4 }, mulberry32(seed));
      for (let r = 0; r < b.rows; r++) {
        const ctx = v.decode(b.contexts.subarray(r * 4, r * 4 + 4));
        if (!text.includes(ctx + v.chars[b.targets[r]])) return false;
      }
      return b.rows === 15;
    }), { seed: 2, numRuns: 50 });
  });
  it("sampleBatch with lengths pads the tail of each sequence with IGNORE_INDEX", () => {
    const { tokens } = corpus();
    const b = sampleBatch(tokens, { batchSize: 2, seqLen: 4, contextLength: 3, lengths: [1, 3] }, mulberry32(1));
    expect(Array.from(b.targets).map((t) => t === IGNORE_INDEX)).toEqual([false, true, true, true, false, false, false, true]);
  });
  it("sampleBatch is deterministic for a seed", () => {
    const { tokens } = corpus();
    const o = { batchSize: 4, seqLen: 8, contextLength: 8 };
    expect(sampleBatch(tokens, o, mulberry32(5))).toEqual(sampleBatch(tokens, o, mulberry32(5)));
  });
  it("sampleBatch and concatBatches reject bad input with the field name", () => {
    const { tokens } = corpus();
    expect(() => sampleBatch(tokens, { batchSize: 0, seqLen: 8, contextLength: 8 }, mulberry32(1))).toThrow(/batchSize must be an integer >= 1, got 0/);
    expect(() => sampleBatch(tokens, { batchSize: 2, seqLen: 8, contextLength: 8, lengths: [9, 1] }, mulberry32(1))).toThrow(/lengths must be B = 2 integers in \[0, 8\]/);
    expect(() => sampleBatch(tokens.subarray(0, 5), { batchSize: 1, seqLen: 8, contextLength: 8 }, mulberry32(1))).toThrow(/tokens must hold at least/);
    expect(() => concatBatches([])).toThrow(/batches must not be empty/);
  });
});
