import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { collectiveCost, ringAllReduceBytesPerRank } from "./collectiveCost.js";
import { messageTimeS } from "./costModel.js";

const cost = { alphaS: 5e-6, bandwidthBytesPerS: 25e9 };

describe("collectiveCost", () => {
  it("ring all-reduce bus-bandwidth factor is 2(n−1)/n (NCCL tests PERFORMANCE.md): 1.75 for n = 8", () => {
    // PERFORMANCE.md: busBw = algBw · 2(n−1)/n; algBw = S / t. With α = 0 the ring runs at busBw = B.
    const S = 8 * 2 ** 20, P = 8;
    const { timeS } = collectiveCost("ring-all-reduce", S / 4, P, { alphaS: 0, bandwidthBytesPerS: 1e9 });
    const algBw = S / timeS;
    expect(algBw * (2 * (P - 1)) / P).toBeCloseTo(1e9, 3);
    // PERFORMANCE.md: each rank sends 2(n−1)/n·S = 1.75·S bytes for n = 8 (published factor, not recomputed here)
    expect(collectiveCost("ring-all-reduce", S / 4, P, cost).maxBytesSentPerRank).toBe(1.75 * S);
  });

  it("reduce-scatter and all-gather factor is (n−1)/n (NCCL tests PERFORMANCE.md)", () => {
    const n = 4096, P = 4;
    for (const alg of ["reduce-scatter", "all-gather"] as const) {
      const c = collectiveCost(alg, n, P, { alphaS: 0, bandwidthBytesPerS: 1e9 });
      expect(c.maxBytesSentPerRank).toBe(((P - 1) / P) * n * 4);
      expect((n * 4) / c.timeS * ((P - 1) / P)).toBeCloseTo(1e9, 3);
    }
  });

  it("ringAllReduceBytesPerRank(S, P) = 2(P−1)/P·S stays below 2S while the server's (P−1)·S grows", () => {
    expect(ringAllReduceBytesPerRank(4e6, 4)).toBe(6e6);
    fc.assert(fc.property(fc.integer({ min: 2, max: 1024 }), (P) => {
      expect(ringAllReduceBytesPerRank(1, P)).toBeLessThan(2);
      expect(collectiveCost("parameter-server", 1, P, cost).maxBytesSentPerRank).toBe((P - 1) * 4);
    }), { seed: 3, numRuns: 50 });
  });

  it("the ring meets the all-reduce lower bound 2(P−1)/P·S per rank (Patarasuk & Yuan 2009, Sec. 2) when P divides n", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 100 }), (P, k) => {
      const n = P * k;
      expect(collectiveCost("ring-all-reduce", n, P, cost).maxBytesSentPerRank).toBe(ringAllReduceBytesPerRank(n * 4, P));
    }), { seed: 4, numRuns: 50 });
  });

  it("n = 0 or P = 1 costs nothing", () => {
    expect(collectiveCost("ring-all-reduce", 0, 8, cost)).toEqual({ numSteps: 0, timeS: 0, maxBytesSentPerRank: 0, totalBytes: 0 });
    expect(collectiveCost("parameter-server", 100, 1, cost).timeS).toBe(0);
  });

  it("collectiveCost rejects P = 0, negative n, a negative bandwidth and an unknown algorithm", () => {
    expect(() => collectiveCost("ring-all-reduce", 10, 0, cost)).toThrow("numRanks must be an integer >= 1, got 0");
    expect(() => collectiveCost("ring-all-reduce", -1, 2, cost)).toThrow("numElements must be an integer >= 0, got -1");
    expect(() => collectiveCost("ring-all-reduce", 1, 2, { alphaS: 0, bandwidthBytesPerS: -5 })).toThrow("bandwidthBytesPerS must be a finite number > 0, got -5");
    expect(() => collectiveCost("tree" as never, 1, 2, cost)).toThrow(/algorithm must be one of/);
    expect(() => messageTimeS(-3, cost)).toThrow("bytes must be a finite number >= 0, got -3");
  });
});
