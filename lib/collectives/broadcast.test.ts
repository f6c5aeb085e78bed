import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { broadcast } from "./broadcast.js";
import { reduce } from "./reduce.js";
import { binomialTreeSteps } from "./binomialTree.js";
import { collectiveCost } from "./collectiveCost.js";
import { naiveSum, randomBuffers, firstMismatch } from "./testing.js";

const cost = { alphaS: 1e-6, bandwidthBytesPerS: 1e9 };
const F = (...xs: number[]) => Float32Array.from(xs);

describe("binomialTreeSteps", () => {
  it("binomialTreeSteps(5, 2) reaches every rank once in ⌈log2 5⌉ = 3 steps", () => {
    const steps = binomialTreeSteps(5, 2);
    expect(steps).toEqual([[[2, 3]], [[2, 4], [3, 0]], [[2, 1]]]);
  });
});

describe("broadcast", () => {
  it("broadcast(buffers, {root: 1}) copies rank 1's buffer everywhere", () => {
    const { result } = broadcast([[0, 0], [7, 8], [0, 0]], { cost, root: 1 });
    expect(result).toEqual([F(7, 8), F(7, 8), F(7, 8)]);
  });

  it("broadcast rejects a root outside [0, P−1]", () => {
    expect(() => broadcast([[1], [2]], { cost, root: 2 })).toThrow(/root must be an integer in \[0, 1\], got 2/);
  });

  it("property: broadcast equals buffers[root] on every rank; time equals ⌈log2 P⌉(α + S/B)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 0, max: 2000 }), fc.integer(), fc.nat(), (P, n, seed, rootSeed) => {
        const root = rootSeed % P;
        const buffers = randomBuffers(P, n, seed);
        const out = broadcast(buffers, { cost, root });
        for (const r of out.result) expect(firstMismatch(r, buffers[root])).toBe(-1);
        const closed = collectiveCost("broadcast", n, P, cost);
        expect(out.timeS).toBeCloseTo(closed.timeS, 12);
        expect(out.events.reduce((s, e) => s + e.bytes, 0)).toBe(closed.totalBytes);
        expect(out.numSteps).toBe(closed.numSteps);
      }),
      { seed: 21, numRuns: 60 },
    );
  });
});

describe("reduce", () => {
  it("reduce(buffers, {root: 2}) leaves the sum on rank 2 and the inputs elsewhere", () => {
    const { result } = reduce([[1, 2], [10, 20], [100, 200]], { cost, root: 2 });
    expect(result).toEqual([F(1, 2), F(10, 20), F(111, 222)]);
  });

  it("property: reduce equals the naive sum on the root", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 0, max: 2000 }), fc.integer(), fc.nat(), (P, n, seed, rootSeed) => {
        const root = rootSeed % P;
        const buffers = randomBuffers(P, n, seed, "int");
        const out = reduce(buffers, { cost, root });
        expect(firstMismatch(out.result[root], Float32Array.from(naiveSum(buffers)))).toBe(-1);
        const closed = collectiveCost("reduce", n, P, cost);
        expect(out.timeS).toBeCloseTo(closed.timeS, 12);
        expect(out.events.reduce((s, e) => s + e.bytes, 0)).toBe(closed.totalBytes);
      }),
      { seed: 22, numRuns: 60 },
    );
  });
});
