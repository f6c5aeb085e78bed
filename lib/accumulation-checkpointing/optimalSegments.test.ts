import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { optimalSegments } from "./optimalSegments.js";
import { chooseSegments, tradeoff } from "./chooseSegments.js";
import { simulateCheckpointing } from "./simulateCheckpointing.js";

const c = { inputBytes: 1, savedBytes: 2, flops: 10 };
const cost = fc.record({ inputBytes: fc.integer({ min: 1, max: 20 }), extra: fc.integer({ min: 0, max: 40 }), flops: fc.integer({ min: 0, max: 50 }) })
  .map(({ inputBytes, extra, flops }) => ({ inputBytes, savedBytes: inputBytes + extra, flops }));

describe("optimalSegments(costs, memoryLimitBytes)", () => {
  it("worked example: 4 equal layers under 5 bytes give [2, 2], as the exhaustive search", () => {
    expect(optimalSegments([c, c, c, c], 5)).toEqual([2, 2]);
    expect(optimalSegments([c, c, c, c], 8)).toEqual([4]);
    expect(optimalSegments([c, c, c, c], Infinity)).toEqual([4]);
  });
  it("edge cases: one layer, an impossible budget, bad input", () => {
    expect(optimalSegments([c], 2)).toEqual([1]);
    expect(() => optimalSegments([c, c, c, c], 3)).toThrow(/no segmentation fits in memoryLimitBytes = 3/);
    expect(() => optimalSegments([c], -1)).toThrow(/^memoryLimitBytes must be a number >= 0, got -1$/);
    expect(() => optimalSegments([], 5)).toThrow(/at least one layer/);
  });
  it("property (oracle: every segmentation): it fits, and recomputes as little as the exhaustive chooseSegments", () => {
    fc.assert(fc.property(fc.array(cost, { minLength: 1, maxLength: 10 }), fc.integer({ min: 0, max: 100 }), (costs, pick) => {
      const peaks = [...new Set(tradeoff(costs).map((p) => p.peakBytes))].sort((a, b) => a - b);
      const limit = peaks[pick % peaks.length]!;
      const mine = simulateCheckpointing(costs, optimalSegments(costs, limit)).result;
      const best = simulateCheckpointing(costs, chooseSegments(costs, limit)).result;
      expect(mine.peakBytes).toBeLessThanOrEqual(limit);
      expect(mine.recomputeFlops).toBe(best.recomputeFlops);
    }), { numRuns: 300, seed: 4 });
  });
  it("2,000 layers: the answer fits a budget far below the plain peak", () => {
    const many = Array.from({ length: 2000 }, (_, i) => ({ inputBytes: 1 + (i % 3), savedBytes: 4 + (i % 5), flops: 7 }));
    const r = simulateCheckpointing(many, optimalSegments(many, 600)).result;
    expect(r.peakBytes).toBeLessThanOrEqual(600);
  });
});
