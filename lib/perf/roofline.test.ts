import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { attentionCoreTime, checkRoofline, gemmTime, memoryTimeS, type Roofline } from "./index.js";

// The A100 80GB SXM as lib/plan's preset gives it (peak, MAMF fraction, FA2 fraction, data-sheet HBM, 108 SMs).
const a100: Roofline = { peakFlops: 312e12, matmulEfficiency: 271.2 / 312, attentionEfficiency: 0.5, hbmBytesPerS: 2.039e12, numSMs: 108 };

describe("gemmTime", () => {
  it("worked example: 4096 × 4096 × 12288 in bf16 is 3072 tiles, 29 waves on 108 SMs, compute-bound at η·w of the peak", () => {
    const g = gemmTime({ m: 4096, n: 12288, k: 4096, bytesPerElement: 2 }, a100);
    expect(g.flops).toBe(2 * 4096 * 12288 * 4096);
    expect(g.waveEfficiency).toBeCloseTo(3072 / (29 * 108), 12);
    expect(g.memoryBound).toBe(false);
    expect(g.timeS).toBeCloseTo(g.flops / (312e12 * (271.2 / 312) * (3072 / 3132)), 15);
    expect(g.timeS * 1e3).toBeCloseTo(1.55, 2);
  });
  it("a product too thin to reuse its operands is memory-bound: 4096 × 4096 × 16 moves more bytes than the tensor cores need time for", () => {
    const g = gemmTime({ m: 4096, n: 4096, k: 16, bytesPerElement: 2 }, a100); // an attention-score product with d = 16
    expect(g.memoryBound).toBe(true);
    expect(g.timeS).toBeCloseTo(((4096 * 16 + 16 * 4096 + 4096 * 4096) * 2) / 2.039e12, 15);
  });
  it("one tile on 108 SMs runs at 1/108 of the rate: tile and wave quantization", () => {
    const g = gemmTime({ m: 128, n: 128, k: 8192, bytesPerElement: 2 }, a100);
    expect(g.waveEfficiency).toBeCloseTo(1 / 108, 12);
    const partial = gemmTime({ m: 129, n: 128, k: 8192, bytesPerElement: 2 }, a100); // 2 tiles, the second almost empty
    expect(partial.timeS).toBeGreaterThanOrEqual(g.timeS);
  });
  it("an empty product costs only its bytes; bad shapes name the dimension", () => {
    expect(gemmTime({ m: 0, n: 10, k: 10, bytesPerElement: 2 }, a100).flops).toBe(0);
    expect(() => gemmTime({ m: -1, n: 1, k: 1, bytesPerElement: 2 }, a100)).toThrow(/^m must be an integer >= 0, got -1$/);
    expect(() => gemmTime({ m: 1, n: 1, k: 1.5, bytesPerElement: 2 }, a100)).toThrow(/^k must be an integer >= 0, got 1.5$/);
    expect(() => gemmTime({ m: 1, n: 1, k: 1, bytesPerElement: 0 }, a100)).toThrow(/^bytesPerElement must be a finite number > 0, got 0$/);
  });
  it("property: the time never decreases when m, n, k or batch grows, and w is in (0, 1]", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 9000 }), fc.integer({ min: 1, max: 9000 }), fc.integer({ min: 1, max: 9000 }), fc.integer({ min: 1, max: 8 }), fc.constantFrom("m", "n", "k", "batch"), fc.integer({ min: 1, max: 500 }),
      (m, n, k, batch, dim, grow) => {
        const base = { m, n, k, batch, bytesPerElement: 2 };
        const a = gemmTime(base, a100), b = gemmTime({ ...base, [dim]: (base as Record<string, number>)[dim] + grow }, a100);
        expect(b.timeS).toBeGreaterThanOrEqual(a.timeS * (1 - 1e-12));
        expect(a.waveEfficiency).toBeGreaterThan(0);
        expect(a.waveEfficiency).toBeLessThanOrEqual(1 + 1e-12);
      }), { numRuns: 300 });
  });
});

describe("memoryTimeS and checkRoofline", () => {
  it("bytes over bandwidth; bad input names the field", () => {
    expect(memoryTimeS(2.039e9, a100)).toBeCloseTo(1e-3, 15);
    expect(() => memoryTimeS(-1, a100)).toThrow(/^bytes must be a finite number >= 0, got -1$/);
    expect(() => checkRoofline({ ...a100, matmulEfficiency: 1.2 })).toThrow(/^matmulEfficiency must be in \(0, 1\], got 1.2$/);
    expect(() => checkRoofline({ ...a100, numSMs: 0 })).toThrow(/^numSMs must be an integer >= 1, got 0$/);
    expect(() => checkRoofline({ ...a100, peakFlops: 0 })).toThrow(/^peakFlops must be a finite number > 0, got 0$/);
  });
});

describe("attentionCoreTime", () => {
  const base = { microBatch: 1, seqLen: 4096, heads: 32, headDim: 128, dropout: false, bytesPerElement: 2 } as const;
  it("flash: FlashAttention-2's FLOP count (4·s²·d·heads, halved for the causal mask; backward 2.5×) at its fraction of the peak", () => {
    const f = attentionCoreTime({ ...base, kind: "flash" }, a100);
    expect(f.forwardFlops).toBe((4 * 4096 ** 2 * 128 * 32) / 2);
    expect(f.backwardFlops).toBe(2.5 * f.forwardFlops);
    expect(f.forwardS).toBeCloseTo(f.forwardFlops / (0.5 * 312e12), 15);
  });
  it("eager: the s × s scores go through HBM, so at s = 4096 it takes longer than flash, although it does the full (not causal) s² products", () => {
    const e = attentionCoreTime({ ...base, kind: "eager" }, a100), f = attentionCoreTime({ ...base, kind: "flash" }, a100);
    expect(e.forwardFlops).toBe(4 * 4096 ** 2 * 128 * 32); // Narayanan et al.'s 4·b·s²·h per layer
    expect(e.forwardS + e.backwardS).toBeGreaterThan(f.forwardS + f.backwardS);
    // The softmax alone reads and writes 2·s²·heads·2 bytes.
    expect(e.forwardS).toBeGreaterThan((2 * 4096 ** 2 * 32 * 2) / 2.039e12);
  });
  it("dropout adds its mask and the dropped probabilities to eager attention only", () => {
    const e0 = attentionCoreTime({ ...base, kind: "eager" }, a100), e1 = attentionCoreTime({ ...base, kind: "eager", dropout: true }, a100);
    expect(e1.forwardS - e0.forwardS).toBeCloseTo((4096 ** 2 * 32 * (2 * 2 + 1)) / 2.039e12, 12);
    expect(attentionCoreTime({ ...base, kind: "flash", dropout: true }, a100)).toEqual(attentionCoreTime({ ...base, kind: "flash" }, a100));
    expect(() => attentionCoreTime({ ...base, seqLen: 0, kind: "flash" }, a100)).toThrow(/^seqLen must be an integer >= 1, got 0$/);
  });
});
