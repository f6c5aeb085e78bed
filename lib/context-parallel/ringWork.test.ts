import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { ringWork, ringWorkSummary } from "./ringWork.js";
import { sequenceShards, CP_LAYOUTS } from "./sequenceShards.js";

/** Pair by pair: the definition, for small sequences. */
function bruteForce(shards: number[][], causal: boolean): number[][] {
  const C = shards.length;
  return shards.map((q, r) => Array.from({ length: C }, (_, s) => {
    const k = shards[(r - s + C) % C];
    return q.reduce((sum, i) => sum + k.filter((j) => !causal || j <= i).length, 0);
  }));
}

describe("ringWork", () => {
  it("ringWork shows rank 0 idle after its first block with contiguous shards, and zig-zag even (worked examples)", () => {
    expect(ringWork([[0, 1], [2, 3]], true)).toEqual([[3, 0], [3, 4]]);
    expect(ringWork([[0, 3], [1, 2]], true)).toEqual([[3, 2], [3, 2]]);
    expect(ringWork([[0, 3], [1, 2]], false)).toEqual([[4, 4], [4, 4]]);
    expect(ringWork([[0, 1, 2]], true)).toEqual([[6]]);
  });
  it("ringWork equals the pair-by-pair count for any placement of the tokens (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 6 }), fc.boolean(), fc.integer({ min: 0, max: 1e9 }), (C, n, causal, seed) => {
      const perm = Array.from({ length: C * n }, (_, i) => i);
      let x = seed;
      for (let i = perm.length - 1; i > 0; i--) { x = (x * 1103515245 + 12345) % 2147483648; const j = x % (i + 1); [perm[i], perm[j]] = [perm[j], perm[i]]; }
      const shards = Array.from({ length: C }, (_, r) => perm.slice(r * n, (r + 1) * n));
      expect(ringWork(shards, causal)).toEqual(bruteForce(shards, causal));
    }), { seed: 4, numRuns: 200 });
  });
  it("ringWork of every layout sums to N(N+1)/2 causal pairs, also for a 2²⁰-token sequence", () => {
    for (const layout of CP_LAYOUTS) {
      const N = 2 ** 20, C = 8;
      const s = ringWorkSummary(ringWork(sequenceShards(N, C, layout), true));
      expect(s.total).toBe((N * (N + 1)) / 2);
    }
  });
});

describe("ringWorkSummary", () => {
  it("ringWorkSummary gives totals, the critical path and the imbalance (worked example)", () => {
    expect(ringWorkSummary([[3, 0], [3, 4]])).toEqual({ perRank: [3, 7], total: 10, criticalPath: 7, ideal: 5, imbalance: 1.4 });
    expect(() => ringWorkSummary([[1, 2]])).toThrow(/^work must be a non-empty square table/);
  });
  it("ringWorkSummary: contiguous causal shards cost n(n+1)/2 + (C−1)n² against N(N+1)/(2C), zig-zag is balanced, striped within the diagonal (Brandon et al. §3)", () => {
    for (const [C, n] of [[2, 8], [4, 16], [8, 64]]) {
      const N = C * n;
      const contiguous = ringWorkSummary(ringWork(sequenceShards(N, C, "contiguous"), true));
      expect(contiguous.criticalPath).toBe((n * (n + 1)) / 2 + (C - 1) * n * n);
      expect(contiguous.ideal).toBe((N * (N + 1)) / (2 * C));
      const zigzag = ringWorkSummary(ringWork(sequenceShards(N, C, "zigzag"), true));
      expect(zigzag.imbalance).toBe(1);
      expect(new Set(zigzag.perRank).size).toBe(1);
      const striped = ringWorkSummary(ringWork(sequenceShards(N, C, "striped"), true));
      expect(striped.criticalPath).toBe(C * (n * (n + 1)) / 2); // every round waits for a rank that also gets the diagonal
    }
    expect(ringWorkSummary(ringWork(sequenceShards(8 * 4096, 8, "contiguous"), true)).imbalance).toBeCloseTo(2 - 1 / 8, 3);
  });
});
