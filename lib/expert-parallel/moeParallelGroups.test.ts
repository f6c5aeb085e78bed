import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { maskedRankGroups } from "./maskedRankGroups.js";
import { moeParallelGroups } from "./moeParallelGroups.js";

describe("maskedRankGroups", () => {
  it("maskedRankGroups reproduces Megatron's docstring example (sizes [2, 3, 4], the middle dimension's groups)", () => {
    const g = maskedRankGroups([2, 3, 4], [false, true, false]);
    expect(g).toHaveLength(8);
    expect(g[0]).toEqual([0, 2, 4]);
    expect(g[1]).toEqual([1, 3, 5]);
    expect(g[7]).toEqual([19, 21, 23]);
  });
  it("maskedRankGroups partitions the ranks, for any sizes and mask (property)", () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 }).chain((sizes) => fc.tuple(fc.constant(sizes), fc.array(fc.boolean(), { minLength: sizes.length, maxLength: sizes.length }))), ([sizes, mask]) => {
      const all = maskedRankGroups(sizes, mask).flat().sort((a, b) => a - b);
      expect(all).toEqual(Array.from({ length: sizes.reduce((a, b) => a * b, 1) }, (_, i) => i));
    }));
  });
  it("maskedRankGroups rejects bad sizes and masks", () => {
    expect(() => maskedRankGroups([2, 0], [true, false])).toThrow("sizes must be integers >= 1, got [2, 0]");
    expect(() => maskedRankGroups([2, 2], [true])).toThrow("mask must have 2 entries, got 1");
  });
});

describe("moeParallelGroups", () => {
  it("moeParallelGroups worked example: 8 GPUs, tp 2, ep 4 (etp = tp): every expert lives on one tp pair, expert-DP size 1", () => {
    const g = moeParallelGroups({ worldSize: 8, tp: 2, pp: 1, ep: 4 });
    expect(g.dp).toBe(4);
    expect(g.expertDp).toBe(1);
    expect(g.tensor).toEqual([[0, 1], [2, 3], [4, 5], [6, 7]]);
    expect(g.dataContext).toEqual([[0, 2, 4, 6], [1, 3, 5, 7]]);
    expect(g.expert).toEqual([[0, 2, 4, 6], [1, 3, 5, 7]]);
    expect(g.expertData).toEqual([[0], [1], [2], [3], [4], [5], [6], [7]]);
  });
  it("moeParallelGroups with etp = 1: the same 8 GPUs regroup into EP 4 × expert-DP 2 for the experts", () => {
    const g = moeParallelGroups({ worldSize: 8, tp: 2, pp: 1, ep: 4, etp: 1 });
    expect(g.expert).toEqual([[0, 1, 2, 3], [4, 5, 6, 7]]);
    expect(g.expertData).toEqual([[0, 4], [1, 5], [2, 6], [3, 7]]);
    expect(g.expertTensor).toEqual([[0], [1], [2], [3], [4], [5], [6], [7]]);
  });
  it("moeParallelGroups: dense and expert grids share the pipeline groups; every expert-DP group replicates one expert shard (property)", () => {
    fc.assert(fc.property(fc.constantFrom(1, 2), fc.constantFrom(1, 2), fc.constantFrom(1, 2, 4), fc.constantFrom(1, 2), fc.constantFrom(1, 2, 4), (tp, pp, ep, etp, mult) => {
      const worldSize = Math.max(tp, etp * ep) * pp * mult * 2;
      if (worldSize % (tp * pp) || worldSize % (etp * ep * pp)) return;
      const g = moeParallelGroups({ worldSize, tp, pp, ep, etp });
      expect(g.expertDp * etp * ep * pp).toBe(worldSize);
      expect(g.expert.length * ep).toBe(worldSize);
      expect(g.expertData.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: worldSize }, (_, i) => i));
      const ppExpert = maskedRankGroups([etp, ep, g.expertDp, pp], [false, false, false, true]);
      expect(ppExpert).toEqual(g.pipeline);
    }));
  });
  it("moeParallelGroups rejects sizes that do not divide the world", () => {
    expect(() => moeParallelGroups({ worldSize: 12, tp: 8, pp: 1, ep: 1 })).toThrow("worldSize (12) must be divisible by tp·cp·pp = 8");
    expect(() => moeParallelGroups({ worldSize: 8, tp: 1, pp: 1, ep: 16 })).toThrow("worldSize (8) must be divisible by etp·ep·pp = 16");
    expect(() => moeParallelGroups({ worldSize: 8, tp: 0, pp: 1, ep: 1 })).toThrow("tp must be an integer >= 1, got 0");
  });
});
