import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { interleavedSchedule, interleavedTable, checkInterleaved, checkSchedule, bubbleFraction, peakInFlight, generateSchedule } from "./index.js";

const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(b)));

describe("interleaved 1F1B with Megatron's micro-batch group size N (since 4295be1)", () => {
  it("the schedule table of Megatron's comment, PP2 N3 M5 VP2: micro-batches 0 1 2 0 1 2 3 4 3 4, chunks 0 0 0 1 1 1 0 0 1 1", () => {
    const t = interleavedTable(5, 2, 3);
    expect(t.map((x) => x.microBatch)).toEqual([0, 1, 2, 0, 1, 2, 3, 4, 3, 4]);
    expect(t.map((x) => x.chunk)).toEqual([0, 0, 0, 1, 1, 1, 0, 0, 1, 1]);
  });
  it("model_parallel_config.py's example, PP = 2, VP = 2, N = 2, M = 4: rank 0 runs forwards 0 1 0 1 2 3 2 3", () => {
    const s = interleavedSchedule(2, 4, 2, undefined, 2);
    expect(s.events.filter((e) => e.stage === 0 && e.kind === "F").map((e) => e.microBatch)).toEqual([0, 1, 0, 1, 2, 3, 2, 3]);
    expect(interleavedSchedule(2, 5, 2, undefined, 3).events.filter((e) => e.stage === 0 && e.kind === "F").map((e) => e.microBatch)).toEqual([0, 1, 2, 0, 1, 2, 3, 4, 3, 4]);
  });
  it("any valid N keeps the bubble (p − 1)/(v·m) with equal stages; a larger N keeps more in flight on stage 0: (2(p − 1) + (v − 1)N + 1)/v micro-batches (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 6 }), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 12 }), (p, extra, v, n0) => {
      const m = p + extra;
      const valid = Array.from({ length: m - p + 1 }, (_, i) => p + i).filter((N) => m % N === 0 || m % N >= p);
      const N = valid[n0 % valid.length]!;
      const s = interleavedSchedule(p, m, v, undefined, N);
      expect(checkSchedule(s)).toEqual([]);
      close(bubbleFraction(s), (p - 1) / (v * m));
      close(peakInFlight(s)[0], Math.min(m * v, 2 * (p - 1) + (v - 1) * N + 1) / v);
    }), { numRuns: 80 });
  });
  it("m need not be a multiple of p when N is set: p = 4, m = 10 runs with N = 5 (or 10), and is refused with the default N = p", () => {
    expect(() => checkInterleaved(4, 10, 2, 5)).not.toThrow();
    expect(generateSchedule("interleaved", { p: 4, m: 10, v: 2, microbatchGroupSize: 10 }).microbatchGroupSize).toBe(10);
    expect(() => interleavedSchedule(4, 10, 2)).toThrow("m must be a multiple of p = 4 for the interleaved schedule with the default microbatch group size N = p (Megatron-LM's rule), got m = 10");
  });
  it("errors name Megatron's rule", () => {
    expect(() => checkInterleaved(4, 6, 2, 3)).toThrow("microbatchGroupSize must be from p = 4 to m = 6 (Megatron-LM's --microbatch-group-size-per-virtual-pipeline-stage), got 3");
    expect(() => checkInterleaved(4, 6, 2, 7)).toThrow("microbatchGroupSize must be from p = 4 to m = 6");
    expect(() => checkInterleaved(4, 10, 2, 4)).toThrow("m must be a multiple of p = 4");
    expect(() => checkInterleaved(4, 11, 2, 5)).toThrow("m mod microbatchGroupSize must be 0 or >= p = 4 (Megatron-LM's rule), got 11 mod 5 = 1");
    expect(() => checkInterleaved(4, 8, 2, 0)).toThrow("microbatchGroupSize must be an integer >= 1, got 0");
  });
});
