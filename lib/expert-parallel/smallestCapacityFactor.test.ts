import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { smallestCapacityFactor } from "./smallestCapacityFactor.js";
import { mulberry32 } from "../random.js";

/** Exact capacity ⌈N·k·j/(100·E)⌉ in integers. */
const capacity = (N: number, k: number, E: number, j: number) => Math.floor((N * k * j + 100 * E - 1) / (100 * E));
const drops = (routings: number[][], E: number, k: number, j: number) => routings.some((ids) => {
  const N = ids.length / k;
  if (N === 0) return false;
  const load = new Array(E).fill(0);
  ids.forEach((e) => load[e]++);
  return Math.max(...load) > capacity(N, k, E, j);
});

describe("smallestCapacityFactor", () => {
  it("smallestCapacityFactor worked examples: 3 of 4 tokens on one of 2 experts need CF 1.01; perfect balance needs 0.01 less than 1", () => {
    expect(smallestCapacityFactor([[0, 0, 0, 1]], 2, 1)).toBe(1.01);
    // 8 tokens, 4 experts, 2 each: capacity ⌈2·CF⌉ ≥ 2 ⟺ CF > 0.5
    expect(smallestCapacityFactor([[0, 1, 2, 3, 0, 1, 2, 3]], 4, 1)).toBe(0.51);
  });
  it("smallestCapacityFactor takes the worst rank: capacity is computed per rank from its own token count", () => {
    // rank 0 balanced (needs 0.51), rank 1: 2 tokens both on expert 0 → ⌈2·1/4·CF⌉ ≥ 2 ⟺ CF > 2
    expect(smallestCapacityFactor([[0, 1, 2, 3, 0, 1, 2, 3], [0, 0]], 4, 1)).toBe(2.01);
  });
  it("smallestCapacityFactor: the answer drops nothing and 0.01 less drops a token (property, exact capacities)", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e6 }), (seed) => {
      const rng = mulberry32(seed), E = 1 + Math.floor(rng() * 8), k = 1 + Math.floor(rng() * E), P = 1 + Math.floor(rng() * 3);
      const routings = Array.from({ length: P }, () => {
        const N = Math.floor(rng() * 10), ids: number[] = [];
        for (let t = 0; t < N; t++) ids.push(...Array.from({ length: E }, (_, e) => e).sort(() => rng() - 0.5).slice(0, k));
        return ids;
      });
      const cf = smallestCapacityFactor(routings, E, k), j = Math.round(cf * 100);
      expect(drops(routings, E, k, j)).toBe(false);
      if (j > 1) expect(drops(routings, E, k, j - 1)).toBe(true);
    }), { numRuns: 200 });
  });
  it("smallestCapacityFactor of ranks without tokens is 0.01; bad inputs throw", () => {
    expect(smallestCapacityFactor([[], []], 4, 2)).toBe(0.01);
    expect(() => smallestCapacityFactor([[0, 1], [0, 1, 2]], 4, 2)).toThrow("routings[1] has 3 expert ids, not a multiple of topK = 2");
    expect(() => smallestCapacityFactor([[0, 4]], 4, 1)).toThrow("routings[0][1] must be an expert in [0, 4), got 4");
  });
});
