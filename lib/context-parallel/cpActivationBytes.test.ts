import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { cpActivationBytes } from "./cpActivationBytes.js";
import { activationBytesPerLayer } from "../memory/activationBytes.js";

const llama405b = { microBatch: 1, hiddenSize: 16384, numHeads: 128, numKvHeads: 8, tensorParallel: 8, sequenceParallel: true };

describe("cpActivationBytes", () => {
  it("cpActivationBytes with C = 1 is chapter 2's selective-recompute count, with no buffer (worked example)", () => {
    const o = { seqLen: 4096, microBatch: 2, hiddenSize: 4096, numHeads: 32 };
    expect(cpActivationBytes({ ...o, cpSize: 1 })).toEqual({ stored: activationBytesPerLayer({ ...o, recompute: "selective" }), kvBuffers: 0, total: activationBytesPerLayer({ ...o, recompute: "selective" }) });
  });
  it("cpActivationBytes: Llama 3 405B at 131,072 tokens with CP = 16 and TP = 8 stores per GPU what its 8,192-token stage stores with CP = 1 (Dubey et al. 2024, Table 4)", () => {
    const long = cpActivationBytes({ ...llama405b, seqLen: 131072, cpSize: 16 });
    const short = cpActivationBytes({ ...llama405b, seqLen: 8192, cpSize: 1 });
    expect(long.stored).toBe(short.stored);
    expect(long.stored).toBe(8192 * 16384 * 34 / 8); // sbh·34/t, sequence parallel, no s² term
    // the ring's in-flight K and V: one KV head per TP rank (8 heads over t = 8), 128 wide, 8,192 tokens, bf16
    expect(long.kvBuffers).toBe(2 * 8192 * 128 * 2);
    expect(cpActivationBytes({ ...llama405b, seqLen: 131072, cpSize: 16, scheme: "all-gather" }).kvBuffers).toBe(2 * 131072 * 128 * 2);
  });
  it("cpActivationBytes: what a rank stores falls as 1/C (property)", () => {
    fc.assert(fc.property(fc.constantFrom(1, 2, 4, 8), fc.constantFrom(1, 2, 4), fc.constantFrom("ring" as const, "all-gather" as const, "ulysses" as const), (C, t, scheme) => {
      const o = { seqLen: 32768, microBatch: 1, hiddenSize: 8192, numHeads: 64, numKvHeads: 8, tensorParallel: t, scheme };
      expect(cpActivationBytes({ ...o, cpSize: C }).stored * C).toBe(cpActivationBytes({ ...o, cpSize: 1 }).stored);
    }), { seed: 6, numRuns: 40 });
  });
  it("cpActivationBytes rejects a split that does not divide the sequence and bad head counts", () => {
    expect(() => cpActivationBytes({ seqLen: 100, cpSize: 8, microBatch: 1, hiddenSize: 64, numHeads: 4 })).toThrow(/^seqLen \(100\) must be divisible by cpSize \(8\)$/);
    expect(() => cpActivationBytes({ seqLen: 64, cpSize: 0, microBatch: 1, hiddenSize: 64, numHeads: 4 })).toThrow(/^cpSize must be an integer >= 1, got 0$/);
    expect(() => cpActivationBytes({ seqLen: 64, cpSize: 2, microBatch: 1, hiddenSize: 64, numHeads: 4, numKvHeads: 3 })).toThrow(/^numKvHeads must divide numHeads \(4\), got 3$/);
  });
});
