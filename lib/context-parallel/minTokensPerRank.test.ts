import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { minTokensPerRank, type OverlapOptions } from "./minTokensPerRank.js";
import { ringWork } from "./ringWork.js";
import { sequenceShards, CP_LAYOUTS, type CpLayout } from "./sequenceShards.js";

/** The definition, by brute force: the least work of any rank at a step s ≤ C − 2 from ringWork, tried c after c. */
function bruteForce(o: OverlapOptions, maxC: number): number {
  const hKv = (o.numKvHeads * o.hiddenSize) / o.numHeads;
  const step = o.layout === "zigzag" ? 2 : 1;
  if (o.cpSize === 1) return step;
  for (let c = step; c <= maxC; c += step) {
    const work = ringWork(sequenceShards(c * o.cpSize, o.cpSize, o.layout), o.causal);
    const w = Math.min(...work.flatMap((row) => row.slice(0, o.cpSize - 1)));
    const compute = (4 * w * o.hiddenSize * o.microBatch) / o.deviceFlopsPerS;
    const send = o.cost.alphaS + (2 * c * hKv * o.microBatch * o.bytesPerElement) / o.cost.bandwidthBytesPerS;
    if (compute >= send * (1 - 1e-12)) return c;
  }
  return Infinity;
}

const a100 = { hiddenSize: 4096, numHeads: 32, numKvHeads: 32, microBatch: 1, bytesPerElement: 2, deviceFlopsPerS: 312e12 };

describe("minTokensPerRank", () => {
  it("minTokensPerRank without a mask and latency is Liu et al.'s c ≥ F/B (Ring Attention §3): 1,040 tokens for 312 TFLOP/s over 300 GB/s", () => {
    const o = { ...a100, cost: { alphaS: 0, bandwidthBytesPerS: 300e9 }, cpSize: 8, layout: "contiguous" as CpLayout, causal: false };
    expect(minTokensPerRank(o)).toBe(312e12 / 300e9);
    expect(minTokensPerRank({ ...o, cost: { alphaS: 0, bandwidthBytesPerS: 25e9 } })).toBe(312e12 / 25e9); // 12,480 over one NVLink-3 link
  });
  it("minTokensPerRank with a causal mask: zig-zag needs twice the unmasked c, contiguous shards never hide the ring beyond 2 ranks", () => {
    const o = { ...a100, cost: { alphaS: 0, bandwidthBytesPerS: 300e9 }, cpSize: 8, causal: true };
    expect(minTokensPerRank({ ...o, layout: "zigzag" })).toBe(2080);
    expect(minTokensPerRank({ ...o, layout: "contiguous" })).toBe(Infinity);
    expect(minTokensPerRank({ ...o, layout: "contiguous", cpSize: 2 })).toBe(2079); // c(c+1)/2 ≥ 1040·c
    expect(minTokensPerRank({ ...o, layout: "zigzag", cpSize: 1 })).toBe(2);
    expect(minTokensPerRank({ ...o, layout: "striped", cpSize: 1 })).toBe(1);
  });
  it("minTokensPerRank equals the brute-force search over ringWork for any link, model and split (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 5 }), fc.constantFrom(...CP_LAYOUTS), fc.boolean(), fc.constantFrom(1, 2, 4), fc.double({ min: 0, max: 2e-6, noNaN: true }), fc.integer({ min: 1, max: 6 }), (C, layout, causal, kvDiv, alphaS, bw) => {
      const o = { hiddenSize: 64, numHeads: 8, numKvHeads: 8 / kvDiv, microBatch: 1, bytesPerElement: 2, deviceFlopsPerS: 1e12, cost: { alphaS, bandwidthBytesPerS: bw * 1e10 }, cpSize: C, layout, causal };
      expect(minTokensPerRank(o)).toBe(bruteForce(o, 400));
    }), { seed: 19, numRuns: 120 });
  });
  it("minTokensPerRank rejects bad inputs, naming the field", () => {
    const o = { ...a100, cost: { alphaS: 0, bandwidthBytesPerS: 1e9 }, cpSize: 2, layout: "zigzag" as CpLayout, causal: true };
    expect(() => minTokensPerRank({ ...o, deviceFlopsPerS: 0 })).toThrow(/^deviceFlopsPerS must be a finite number > 0, got 0$/);
    expect(() => minTokensPerRank({ ...o, cpSize: 0 })).toThrow(/^cpSize must be an integer >= 1, got 0$/);
    expect(() => minTokensPerRank({ ...o, layout: "x" as never })).toThrow(/^layout must be contiguous, zigzag or striped, got "x"$/);
    expect(() => minTokensPerRank({ ...o, cost: { alphaS: 0, bandwidthBytesPerS: 0 } })).toThrow(/bandwidthBytesPerS/);
  });
});
