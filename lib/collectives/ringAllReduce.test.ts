import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { ringAllReduce } from "./ringAllReduce.js";
import { collectiveCost } from "./collectiveCost.js";
import { chunkBounds } from "./chunkBounds.js";
import { maxSumError, naiveSum, randomBuffers, firstMismatch } from "./testing.js";

const cost = { alphaS: 1e-5, bandwidthBytesPerS: 1e9 };
const F = (...xs: number[]) => Float32Array.from(xs);

describe("ringAllReduce", () => {
  it("ringAllReduce(buffers) leaves the elementwise sum on every rank (worked example, P = 3, n = 4)", () => {
    // sum by hand: [1+10+100, 2+20+200, 3+30+300, 4+40+400]
    const { result } = ringAllReduce([[1, 2, 3, 4], [10, 20, 30, 40], [100, 200, 300, 400]], { cost });
    for (const r of result) expect(r).toEqual(F(111, 222, 333, 444));
  });

  it("ringAllReduce(buffers) takes 2(P−1) steps in which rank r sends one chunk to rank r+1", () => {
    const P = 4;
    const { events, numSteps } = ringAllReduce(randomBuffers(P, 8, 1), { cost });
    expect(numSteps).toBe(2 * (P - 1));
    for (let r = 0; r < P; r++) {
      const mine = events.filter((e) => e.sender === r);
      expect(mine).toHaveLength(2 * (P - 1));
      expect(new Set(mine.map((e) => e.step)).size).toBe(2 * (P - 1));
      for (const e of mine) expect(e.receiver).toBe((r + 1) % P);
      expect(mine.every((e) => e.bytes === 2 * 4)).toBe(true); // 8 elements / 4 ranks · 4 bytes
    }
    // the first P−1 steps add (reduce-scatter), the last P−1 copy (all-gather)
    expect(events.filter((e) => e.kind === "reduce-scatter").every((e) => e.op === "reduce" && e.step < P - 1)).toBe(true);
    expect(events.filter((e) => e.kind === "all-gather").every((e) => e.op === "copy" && e.step >= P - 1)).toBe(true);
  });

  it("ringAllReduce(buffers) sends 2(P−1)/P of the buffer per rank (NCCL PERFORMANCE.md) when P divides n", () => {
    const P = 8, n = 1024;
    const { bytesSentPerRank, bytesReceivedPerRank } = ringAllReduce(randomBuffers(P, n, 2), { cost });
    for (let r = 0; r < P; r++) {
      expect(bytesSentPerRank[r]).toBe((2 * (P - 1) / P) * n * 4);
      expect(bytesReceivedPerRank[r]).toBe((2 * (P - 1) / P) * n * 4);
    }
  });

  it("ringAllReduce(buffers) with P = 1 returns a copy and sends nothing", () => {
    const input = [F(1, 2, 3)];
    const out = ringAllReduce(input, { cost });
    expect(out.result[0]).toEqual(F(1, 2, 3));
    expect(out.result[0]).not.toBe(input[0]);
    expect(out.events).toHaveLength(0);
    expect(out.timeS).toBe(0);
  });

  it("ringAllReduce(buffers) with n = 0 takes no time; with n < P empty chunks are not sent", () => {
    expect(ringAllReduce([F(), F(), F()], { cost }).timeS).toBe(0);
    const out = ringAllReduce([F(1, 2), F(3, 4), F(5, 6), F(7, 8), F(9, 10)], { cost });
    for (const r of out.result) expect(r).toEqual(F(25, 30));
    expect(out.events.every((e) => e.bytes > 0)).toBe(true);
    expect(out.events.reduce((s, e) => s + e.bytes, 0)).toBe(2 * 4 * 2 * 4); // 2(P−1)·n·4 bytes in all
  });

  it("ringAllReduce(buffers) does not modify its inputs", () => {
    const input = randomBuffers(3, 10, 3);
    const copy = input.map((b) => b.slice());
    ringAllReduce(input, { cost });
    expect(input).toEqual(copy);
  });

  it("ringAllReduce(buffers) rejects bad input with a message naming the field", () => {
    expect(() => ringAllReduce([], { cost })).toThrow(/numRanks >= 1/);
    expect(() => ringAllReduce([F(1, 2), F(1)], { cost })).toThrow(/buffers\[1\] has length 1, expected 2/);
    expect(() => ringAllReduce([F(1)], { cost: { alphaS: 0, bandwidthBytesPerS: -1 } })).toThrow(/bandwidthBytesPerS must be a finite number > 0, got -1/);
    expect(() => ringAllReduce([F(1)], { cost: { alphaS: -1, bandwidthBytesPerS: 1 } })).toThrow(/alphaS/);
  });

  it("property: for random P in 1..64 and n in 0..3000, ringAllReduce equals the naive sum, and bytes and time equal the closed forms", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 0, max: 3000 }), fc.integer(), fc.boolean(), (P, n, seed, ints) => {
        const buffers = randomBuffers(P, n, seed, ints ? "int" : "float");
        const out = ringAllReduce(buffers, { cost });
        const want = naiveSum(buffers);
        for (const r of out.result) {
          if (ints) expect(firstMismatch(r, Float32Array.from(want))).toBe(-1); // integer sums are exact
          else expect(maxSumError(r, want, buffers)).toBeLessThanOrEqual(P * 2 ** -24);
        }
        // every rank holds the same bits (all-gather copies one summed chunk everywhere)
        for (const r of out.result) expect(firstMismatch(r, out.result[0])).toBe(-1);
        const closed = collectiveCost("ring-all-reduce", n, P, cost);
        expect(out.events.reduce((s, e) => s + e.bytes, 0)).toBe(closed.totalBytes);
        expect(Math.max(0, ...out.bytesSentPerRank)).toBe(closed.maxBytesSentPerRank);
        expect(out.timeS).toBeCloseTo(closed.timeS, 12);
        // rank r sends every chunk but chunk r (reduce-scatter) and chunk r+1 (all-gather)
        const len = chunkBounds(n, P).map((c) => c.end - c.start);
        for (let r = 0; r < P && P > 1; r++) {
          expect(out.bytesSentPerRank[r]).toBe(4 * (2 * n - len[r] - len[(r + 1) % P]));
        }
      }),
      { seed: 5, numRuns: 60 },
    );
  });
});
