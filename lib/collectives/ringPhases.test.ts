import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { World } from "./World.js";
import { chunkBounds } from "./chunkBounds.js";
import { ringAllGatherPhase, ringAllGatherPhaseGroups, ringReduceScatterPhase, ringReduceScatterPhaseGroups } from "./ringPhases.js";
import { randomBuffers } from "./testing.js";

const cost = { alphaS: 1e-6, bandwidthBytesPerS: 1e9 };
const F = (...xs: number[]) => Float32Array.from(xs);

describe("ring phases over groups of ranks", () => {
  it("ringReduceScatterPhaseGroups: two rings of 2 (ranks 0,1 and 2,3) reduce at once, by hand", () => {
    const w = new World([F(1, 2, 3, 4), F(10, 20, 30, 40), F(100, 200, 300, 400), F(5, 6, 7, 8)], cost);
    const b = chunkBounds(4, 2);
    ringReduceScatterPhaseGroups(w, { ranks: [[0, 1], [2, 3]], bounds: [b, b] });
    expect(w.numSteps).toBe(1); // P − 1 = 1 step for both rings
    expect(w.buffers[0].subarray(0, 2)).toEqual(F(11, 22)); // chunk 0 ends on ring position 0
    expect(w.buffers[1].subarray(2, 4)).toEqual(F(33, 44));
    expect(w.buffers[2].subarray(0, 2)).toEqual(F(105, 206));
    expect(w.buffers[3].subarray(2, 4)).toEqual(F(307, 408));
    expect(w.events.map((e) => [e.sender, e.receiver, e.offset, e.length])).toEqual([[0, 1, 2, 2], [1, 0, 0, 2], [2, 3, 2, 2], [3, 2, 0, 2]]);
  });

  it("one group of every rank gives exactly the whole-world phases (same messages, same buffers), property", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 0, max: 30 }), (P, n) => {
      const bufs = randomBuffers(P, n, P * 31 + n);
      const a = new World(bufs, cost), b = new World(bufs, cost);
      const bounds = chunkBounds(n, P);
      ringReduceScatterPhase(a, bounds); ringAllGatherPhase(a, bounds);
      ringReduceScatterPhaseGroups(b, { ranks: [Array.from({ length: P }, (_, r) => r)], bounds: [bounds] });
      ringAllGatherPhaseGroups(b, { ranks: [Array.from({ length: P }, (_, r) => r)], bounds: [bounds] });
      expect(b.buffers).toEqual(a.buffers);
      expect(b.events).toEqual(a.events);
    }), { numRuns: 40, seed: 5 });
  });

  it("rings on strided ranks (a replicate group: ranks 1 and 3 of a 2×2 mesh) with their own chunk ranges", () => {
    const w = new World([F(1, 1), F(2, 3), F(4, 4), F(5, 7)], cost);
    ringReduceScatterPhaseGroups(w, { ranks: [[1, 3]], bounds: [[{ start: 0, end: 1 }, { start: 1, end: 2 }]] });
    ringAllGatherPhaseGroups(w, { ranks: [[1, 3]], bounds: [[{ start: 0, end: 1 }, { start: 1, end: 2 }]] });
    expect(w.buffers[1]).toEqual(F(7, 10));
    expect(w.buffers[3]).toEqual(F(7, 10));
    expect(w.buffers[0]).toEqual(F(1, 1)); // not in the ring: untouched
  });

  it("a collective in another dtype: bytesPerElement of the step counts the bytes (an fp32 world all-gathering bf16)", () => {
    const w = new World([F(1, 0), F(0, 2)], cost, { bytesPerElement: 4 });
    ringAllGatherPhaseGroups(w, { ranks: [[0, 1]], bounds: [chunkBounds(2, 2)] }, 2);
    expect(w.bytesSent).toEqual([2, 2]);
    expect(w.buffers[0]).toEqual(F(1, 2));
    expect(() => w.step("send", [], 0)).toThrow("bytesPerElement must be a number > 0, got 0");
  });

  it("errors name the ring and the rank", () => {
    const w = new World([F(1), F(2), F(3)], cost);
    const b = chunkBounds(1, 2);
    expect(() => ringAllGatherPhaseGroups(w, { ranks: [[0, 1], [2]], bounds: [b, chunkBounds(1, 1)] })).toThrow("every ring must have the same size >= 1: ring 0 has 2 ranks, ring 1 has 1");
    expect(() => ringAllGatherPhaseGroups(w, { ranks: [[0, 1], [1, 2]], bounds: [b, b] })).toThrow("rank 1 is in two rings");
    expect(() => ringAllGatherPhaseGroups(w, { ranks: [[0, 3]], bounds: [b] })).toThrow("rank 3 of ring 0 is not in the world (ranks 0..2)");
    expect(() => ringAllGatherPhaseGroups(w, { ranks: [[0, 1]], bounds: [chunkBounds(1, 3)] })).toThrow("ring 0 has 2 ranks but 3 chunk ranges");
  });
});
