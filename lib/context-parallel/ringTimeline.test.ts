import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { ringTimeline } from "./ringTimeline.js";
import { ringWork, ringWorkSummary } from "./ringWork.js";
import { sequenceShards } from "./sequenceShards.js";

const link = { alphaS: 0, bandwidthBytesPerS: 1 };

describe("ringTimeline", () => {
  it("ringTimeline hides a send behind the compute it overlaps, and serialises it without overlap (worked example)", () => {
    const base = { work: [[1, 1], [1, 1]], flopsPerPair: 1, deviceFlopsPerS: 1, blockBytes: 2, cost: link };
    const over = ringTimeline({ ...base, overlap: true });
    expect(over.timeS).toBe(3); // send 0–2 under compute 0–1, then block 1 from 2 to 3
    expect(over.computeOnlyS).toBe(2);
    expect(over.exposedCommS).toBe(1);
    expect(ringTimeline({ ...base, overlap: false }).timeS).toBe(4); // compute 0–1, send 1–3, compute 3–4
    expect(ringTimeline({ ...base, blockBytes: 1, overlap: true }).exposedCommS).toBe(0);
    expect(over.events.filter((e) => e.kind === "send").map((e) => [e.rank, e.peer, e.t, e.tEnd, e.bytes])).toEqual([[0, 1, 0, 2, 2], [1, 0, 0, 2, 2]]);
  });
  it("ringTimeline with free communication takes the critical path of the work table when ranks are balanced", () => {
    const work = ringWork(sequenceShards(64, 4, "zigzag"), true);
    const t = ringTimeline({ work, flopsPerPair: 1, deviceFlopsPerS: 1, blockBytes: 0, cost: link, overlap: true });
    expect(t.computeOnlyS).toBe(ringWorkSummary(work).criticalPath);
    expect(t.computeS.every((c) => c === ringWorkSummary(work).perRank[0])).toBe(true);
  });
  it("ringTimeline: overlap never loses, zig-zag never loses to contiguous shards, and nothing is negative (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 8 }), fc.double({ min: 0, max: 1e-3, noNaN: true }), fc.double({ min: 1e6, max: 1e10, noNaN: true }), (C, k, alphaS, B) => {
      const N = 2 * C * k;
      const run = (layout: "contiguous" | "zigzag", overlap: boolean) => ringTimeline({ work: ringWork(sequenceShards(N, C, layout), true), flopsPerPair: 4 * 64, deviceFlopsPerS: 1e9, blockBytes: 2 * (N / C) * 64 * 2, cost: { alphaS, bandwidthBytesPerS: B }, overlap });
      const zo = run("zigzag", true), zn = run("zigzag", false), co = run("contiguous", true);
      expect(zo.timeS).toBeLessThanOrEqual(zn.timeS * (1 + 1e-12));
      expect(zo.timeS).toBeLessThanOrEqual(co.timeS * (1 + 1e-12));
      expect(zo.exposedCommS).toBeGreaterThanOrEqual(-1e-15);
      expect(zo.events.every((e) => e.tEnd >= e.t && e.t >= 0)).toBe(true);
    }), { seed: 8, numRuns: 80 });
  });
  it("ringTimeline rejects bad inputs, naming the field", () => {
    const ok = { work: [[1]], flopsPerPair: 1, deviceFlopsPerS: 1, blockBytes: 0, cost: link, overlap: true };
    expect(() => ringTimeline({ ...ok, work: [] })).toThrow(/^work must be a non-empty square table/);
    expect(() => ringTimeline({ ...ok, deviceFlopsPerS: 0 })).toThrow(/^deviceFlopsPerS must be a finite number > 0, got 0$/);
    expect(() => ringTimeline({ ...ok, blockBytes: -1 })).toThrow(/^blockBytes must be a finite number >= 0, got -1$/);
    expect(() => ringTimeline({ ...ok, cost: { alphaS: -1, bandwidthBytesPerS: 1 } })).toThrow(/alphaS/);
  });
});
