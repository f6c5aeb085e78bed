import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { groupLimitedTopK, tokenCopies, meanTokenCopies } from "./nodeLimitedRouting.js";
import { topKIndices, mulberry32, gaussian } from "../nn/index.js";

describe("groupLimitedTopK", () => {
  it("groupLimitedTopK worked example: the group with the best pair wins, though another holds single high scores", () => {
    expect(groupLimitedTopK([9, 8, 0, 0, 7, 7, 0, 0], 2, 4, 1)).toEqual([0, 1]);
    // one group allowed: the token takes expert 1 (score 0) rather than expert 4 (score 8) on another group
    expect(groupLimitedTopK([9, 0, 0, 0, 8, 0, 7, 0], 2, 4, 1)).toEqual([0, 1]);
    expect(groupLimitedTopK([9, 0, 0, 0, 8, 0, 7, 0], 2, 4, 2)).toEqual([0, 4]);
  });
  it("groupLimitedTopK uses at most M groups and equals plain top-k when M = G (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e6 }), (seed) => {
      const rng = mulberry32(seed), G = 1 + Math.floor(rng() * 6), size = 1 + Math.floor(rng() * 5), E = G * size;
      const M = 1 + Math.floor(rng() * G), per = 1 + Math.floor(rng() * size), k = M * per;
      const s = Array.from({ length: E }, () => gaussian(rng));
      const sel = groupLimitedTopK(s, k, G, M);
      expect(new Set(sel.map((e) => Math.floor(e / size))).size).toBeLessThanOrEqual(M);
      expect(groupLimitedTopK(s, per * G <= E ? G * Math.min(per, size) : k, G, G)).toEqual(topKIndices(s, G * Math.min(per, size)));
    }));
  });
  it("groupLimitedTopK rejects k not divisible by M, M out of range, and groups that do not divide E", () => {
    expect(() => groupLimitedTopK(new Array(8).fill(0), 6, 4, 4)).toThrow("topK (6) must be a multiple of groupTopK (4)");
    expect(() => groupLimitedTopK(new Array(8).fill(0), 4, 4, 5)).toThrow("groupTopK must be an integer in [1, numGroups = 4], got 5");
    expect(() => groupLimitedTopK(new Array(8).fill(0), 2, 3, 1)).toThrow("numGroups (3) must divide the 8 experts");
  });
});

describe("tokenCopies", () => {
  it("tokenCopies worked example: 16 experts on 8 ranks of 4 per node, token on rank 0 → experts 0, 1, 8, 12", () => {
    expect(tokenCopies([0, 1, 8, 12], 0, 16, 8, 4)).toEqual({ pairs: 2, ranks: 2, nodes: 1 });
    expect(tokenCopies([2, 3], 0, 16, 8, 4)).toEqual({ pairs: 2, ranks: 1, nodes: 0 }); // both on rank 1, same node
  });
  it("tokenCopies: nodes ≤ ranks ≤ pairs ≤ k, and node-limited routing to M nodes caps nodes at M (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e6 }), (seed) => {
      const rng = mulberry32(seed), E = 64, P = 16, g = 4, k = 8, M = 2;
      const s = Array.from({ length: E }, () => gaussian(rng));
      const src = Math.floor(rng() * P);
      const c = tokenCopies(groupLimitedTopK(s, k, P / g, M), src, E, P, g);
      expect(c.nodes).toBeLessThanOrEqual(Math.min(c.ranks, M));
      expect(c.ranks).toBeLessThanOrEqual(c.pairs);
      expect(c.pairs).toBeLessThanOrEqual(k);
    }));
  });
  it("tokenCopies rejects nodes that do not divide the ranks", () => {
    expect(() => tokenCopies([0], 0, 8, 8, 3)).toThrow("ranksPerNode (3) must divide epSize (8)");
  });
});

describe("meanTokenCopies", () => {
  it("meanTokenCopies: DeepSeek-V3's shape (256 experts, EP 64 over 8 nodes, k = 8) reaches at most M other nodes, and fewer nodes with a smaller M", () => {
    const o = { numExperts: 256, epSize: 64, ranksPerNode: 8, topK: 8, tokens: 200, seed: 11 };
    const byM = [1, 2, 4, 8].map((groupTopK) => meanTokenCopies({ ...o, groupTopK }));
    byM.forEach((c, i) => expect(c.nodes).toBeLessThanOrEqual([1, 2, 4, 8][i]));
    expect(byM[0].nodes).toBeLessThan(byM[1].nodes);
    expect(byM[2].nodes).toBeLessThan(byM[3].nodes);
    // unlimited: each of the 7 other nodes is hit by at least one of the 8 picks with probability ≈ 1 − (7/8)^8
    const expected = 7 * (1 - (1 - 1 / 8) ** 8);
    expect(Math.abs(byM[3].nodes - expected)).toBeLessThan(0.3);
  });
});
