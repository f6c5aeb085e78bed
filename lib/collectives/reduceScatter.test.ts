import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { reduceScatter } from "./reduceScatter.js";
import { allGather } from "./allGather.js";
import { chunkBounds } from "./chunkBounds.js";
import { collectiveCost } from "./collectiveCost.js";
import { naiveSum, randomBuffers, firstMismatch } from "./testing.js";

const cost = { alphaS: 2e-6, bandwidthBytesPerS: 5e8 };
const F = (...xs: number[]) => Float32Array.from(xs);

describe("chunkBounds", () => {
  it("chunkBounds(10, 4) gives the first 10 mod 4 chunks one extra element", () => {
    expect(chunkBounds(10, 4).map((c) => c.end - c.start)).toEqual([3, 3, 2, 2]);
    expect(chunkBounds(2, 4).map((c) => c.end - c.start)).toEqual([1, 1, 0, 0]);
    expect(() => chunkBounds(3, 0)).toThrow(/numRanks must be an integer >= 1, got 0/);
  });
});

describe("reduceScatter", () => {
  it("reduceScatter(buffers) leaves chunk r of the sum on rank r (worked example, n = 5, P = 2)", () => {
    const { result, numSteps } = reduceScatter([[1, 2, 3, 4, 5], [10, 20, 30, 40, 50]], { cost });
    expect(result).toEqual([F(11, 22, 33), F(44, 55)]);
    expect(numSteps).toBe(1);
  });

  it("property: reduceScatter equals chunk r of the naive sum; (P−1)/P of the buffer per rank when P divides n", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 0, max: 3000 }), fc.integer(), (P, n, seed) => {
        const buffers = randomBuffers(P, n, seed, "int");
        const out = reduceScatter(buffers, { cost });
        const sum = Float32Array.from(naiveSum(buffers));
        const bounds = chunkBounds(n, P);
        out.result.forEach((r, i) => expect(firstMismatch(r, sum.slice(bounds[i].start, bounds[i].end))).toBe(-1));
        const closed = collectiveCost("reduce-scatter", n, P, cost);
        expect(out.timeS).toBeCloseTo(closed.timeS, 12);
        expect(out.events.reduce((s, e) => s + e.bytes, 0)).toBe(closed.totalBytes);
        if (n % P === 0) for (const b of out.bytesSentPerRank) expect(b).toBe(((P - 1) / P) * n * 4);
      }),
      { seed: 11, numRuns: 60 },
    );
  });
});

describe("allGather", () => {
  it("allGather(shards) concatenates shards of different lengths, including empty ones, on every rank", () => {
    const { result } = allGather([[1, 2], [], [3]], { cost });
    for (const r of result) expect(r).toEqual(F(1, 2, 3));
  });

  it("property: allGather(reduceScatter(x)) equals ringAllReduce's definition, and bytes equal (P−1)/P·n per rank", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 0, max: 3000 }), fc.integer(), (P, n, seed) => {
        const buffers = randomBuffers(P, n, seed, "int");
        const shards = reduceScatter(buffers, { cost }).result;
        const out = allGather(shards, { cost });
        const sum = Float32Array.from(naiveSum(buffers));
        for (const r of out.result) expect(firstMismatch(r, sum)).toBe(-1);
        const closed = collectiveCost("all-gather", n, P, cost);
        expect(out.timeS).toBeCloseTo(closed.timeS, 12);
        expect(out.events.reduce((s, e) => s + e.bytes, 0)).toBe(closed.totalBytes);
        if (n % P === 0) for (const b of out.bytesSentPerRank) expect(b).toBe(((P - 1) / P) * n * 4);
      }),
      { seed: 12, numRuns: 60 },
    );
  });

  it("allGather([]) is rejected with a clear error", () => {
    expect(() => allGather([], { cost })).toThrow(/numRanks >= 1/);
  });
});
