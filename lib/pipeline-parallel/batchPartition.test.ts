import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { resolveBatch, dataParallelSize, balancePartition, uniformChunks, oneFOneBSchedule, stepTime } from "./index.js";

describe("resolveBatch (DeepSpeed's train_batch_size rule)", () => {
  it("derives the missing field", () => {
    expect(resolveBatch({ trainBatchSize: 512, microBatchSize: 4, dataParallelSize: 8 })).toEqual({ trainBatchSize: 512, microBatchSize: 4, gradientAccumulationSteps: 16, dataParallelSize: 8 });
    expect(resolveBatch({ trainBatchSize: 512, gradientAccumulationSteps: 16, dataParallelSize: 8 }).microBatchSize).toBe(4);
    expect(resolveBatch({ microBatchSize: 4, gradientAccumulationSteps: 16, dataParallelSize: 8 }).trainBatchSize).toBe(512);
  });
  it("names the mismatch", () => {
    expect(() => resolveBatch({ trainBatchSize: 16, microBatchSize: 2, gradientAccumulationSteps: 4, dataParallelSize: 4 })).toThrow("trainBatchSize is not equal to microBatchSize * gradientAccumulationSteps * dataParallelSize: 16 != 2 * 4 * 4");
    expect(() => resolveBatch({ trainBatchSize: 10, microBatchSize: 2, dataParallelSize: 4 })).toThrow("trainBatchSize = 10 is not divisible by microBatchSize * dataParallelSize = 2 * 4");
    expect(() => resolveBatch({ trainBatchSize: 10, dataParallelSize: 4 })).toThrow(/give at least two/);
    expect(() => resolveBatch({ trainBatchSize: 8, microBatchSize: 0, dataParallelSize: 4 })).toThrow("microBatchSize must be an integer >= 1, got 0");
    expect(() => resolveBatch({ trainBatchSize: 8, microBatchSize: 1, dataParallelSize: 1.5 })).toThrow("dataParallelSize must be an integer >= 1, got 1.5");
  });
  it("property: any consistent triple round-trips from each pair", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 64 }), (b, a, d) => {
      const full = { trainBatchSize: b * a * d, microBatchSize: b, gradientAccumulationSteps: a, dataParallelSize: d };
      expect(resolveBatch({ trainBatchSize: b * a * d, microBatchSize: b, dataParallelSize: d })).toEqual(full);
      expect(resolveBatch({ trainBatchSize: b * a * d, gradientAccumulationSteps: a, dataParallelSize: d })).toEqual(full);
      expect(resolveBatch(full)).toEqual(full);
    }));
  });
  it("data-parallel size is GPUs / (tp·pp), not the GPU count", () => {
    expect(dataParallelSize(64, 8, 4)).toBe(2);
    expect(() => dataParallelSize(12, 8, 1)).toThrow("gpus = 12 is not divisible by tp * pp = 8");
  });
});

/** Brute force over all C(L−1, p−1) contiguous splits: the oracle for the partitioner. */
function bruteMax(costs: number[], p: number): number {
  let best = Infinity;
  const rec = (start: number, k: number, worst: number) => {
    if (k === 1) { best = Math.min(best, Math.max(worst, costs.slice(start).reduce((a, x) => a + x, 0))); return; }
    let sum = 0;
    for (let end = start + 1; end <= costs.length - (k - 1); end++) { sum += costs[end - 1]; rec(end, k - 1, Math.max(worst, sum)); }
  };
  rec(0, p, 0);
  return best;
}

describe("balancePartition", () => {
  it("worked example", () => {
    expect(balancePartition([1, 1, 1, 3], 2)).toEqual({ bounds: [0, 3, 4], stageCosts: [3, 3] });
  });
  it("property: contiguous, non-empty, and as good as brute force", () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 9 }), fc.integer({ min: 1, max: 9 }), (costs, p0) => {
      const p = Math.min(p0, costs.length);
      const r = balancePartition(costs, p);
      expect(r.bounds[0]).toBe(0);
      expect(r.bounds[p]).toBe(costs.length);
      for (let s = 0; s < p; s++) expect(r.bounds[s + 1]).toBeGreaterThan(r.bounds[s]);
      expect(Math.max(...r.stageCosts)).toBe(bruteMax(costs, p));
    }));
  });
  it("a bad split is slower: 1F1B step time follows the slowest stage", () => {
    const costs = [4, 1, 1, 1, 1, 4, 2, 2];
    const good = balancePartition(costs, 4).stageCosts;
    const naive = [0, 2, 4, 6, 8].slice(0, 4).map((b) => costs[b] + costs[b + 1]); // two layers per stage
    const t = (c: number[]) => stepTime(oneFOneBSchedule(4, 16, { forward: c, backward: c.map((x) => 2 * x) }));
    expect(Math.max(...good)).toBeLessThan(Math.max(...naive));
    expect(t(good)).toBeLessThan(t(naive));
  });
  it("errors", () => {
    expect(() => balancePartition([1, 2, 3], 4)).toThrow("p must be <= the number of layers (3): every stage needs a layer, got p = 4");
    expect(() => balancePartition([1, -1], 1)).toThrow("costs[1] must be a finite number >= 0, got -1");
    expect(uniformChunks(8, 2, 2)).toEqual([0, 2, 4, 6, 8]);
    expect(() => uniformChunks(10, 4, 2)).toThrow("numLayers must be divisible by p * v = 8 (p = 4, v = 2), got 10");
  });
});
