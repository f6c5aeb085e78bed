import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { parameterServerAllReduce } from "./parameterServerAllReduce.js";
import { ringAllReduce } from "./ringAllReduce.js";
import { collectiveCost } from "./collectiveCost.js";
import { naiveSum, randomBuffers, firstMismatch } from "./testing.js";

const cost = { alphaS: 1e-5, bandwidthBytesPerS: 1e9 };
const F = (...xs: number[]) => Float32Array.from(xs);

describe("parameterServerAllReduce", () => {
  it("parameterServerAllReduce(buffers) pushes to the server, which sends the sum back (worked example)", () => {
    const out = parameterServerAllReduce([[1, 2], [3, 4], [5, 6]], { cost, serverRank: 1 });
    expect(out.result).toEqual([F(9, 12), F(9, 12), F(9, 12)]);
    expect(out.events.filter((e) => e.kind === "push").map((e) => [e.sender, e.receiver])).toEqual([[0, 1], [2, 1]]);
    expect(out.events.filter((e) => e.kind === "pull").map((e) => [e.sender, e.receiver])).toEqual([[1, 0], [1, 2]]);
    expect(out.bytesSentPerRank).toEqual([8, 16, 8]); // the server sends (P−1)·S
    // the server's link carries 2 × 8 bytes in each step: 2 (α + 16 B / 1e9 B/s)
    expect(out.timeS).toBeCloseTo(2 * (1e-5 + 16 / 1e9), 15);
  });

  it("a slower server link makes each step last α + (P−1)·S/B_server", () => {
    const c = { ...cost, serverBandwidthBytesPerS: 1e8 };
    const out = parameterServerAllReduce(randomBuffers(5, 100, 1), { cost: c });
    expect(out.timeS).toBeCloseTo(2 * (1e-5 + (4 * 400) / 1e8), 15);
  });

  it("for large buffers the ring beats the single server once P > 2 (bandwidth bottleneck)", () => {
    const n = 1 << 16;
    for (const P of [3, 8, 32]) {
      expect(collectiveCost("ring-all-reduce", n, P, cost).timeS).toBeLessThan(collectiveCost("parameter-server", n, P, cost).timeS);
    }
  });

  it("rejects a server rank outside [0, P−1] and a negative server bandwidth", () => {
    expect(() => parameterServerAllReduce([[1], [2], [3]], { cost, serverRank: 3 })).toThrow(/serverRank must be an integer in \[0, 2\], got 3/);
    expect(() => parameterServerAllReduce([[1]], { cost: { ...cost, serverBandwidthBytesPerS: -2 } })).toThrow(/serverBandwidthBytesPerS must be a finite number > 0, got -2/);
  });

  it("property: equals the naive sum and the ring's result; time and bytes equal the closed form", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 0, max: 2000 }), fc.integer(), (P, n, seed) => {
        const buffers = randomBuffers(P, n, seed, "int");
        const out = parameterServerAllReduce(buffers, { cost });
        const sum = Float32Array.from(naiveSum(buffers));
        for (const r of out.result) expect(firstMismatch(r, sum)).toBe(-1);
        ringAllReduce(buffers, { cost }).result.forEach((r, i) => expect(firstMismatch(out.result[i], r)).toBe(-1));
        const closed = collectiveCost("parameter-server", n, P, cost);
        expect(out.timeS).toBeCloseTo(closed.timeS, 12);
        expect(out.events.reduce((s, e) => s + e.bytes, 0)).toBe(closed.totalBytes);
        expect(Math.max(0, ...out.bytesSentPerRank)).toBe(closed.maxBytesSentPerRank);
      }),
      { seed: 31, numRuns: 60 },
    );
  });
});
