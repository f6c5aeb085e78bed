import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { largestModel } from "./largestModel.js";
import { modelStateBytes, type ZeroStage } from "./modelStateBytes.js";

const states = (params: number, dataParallel: number, zeroStage: ZeroStage) => {
  const m = modelStateBytes({ params, dataParallel, zeroStage, precision: "fp16", optimizer: "adamw" });
  return m.parameters + m.gradients + m.optimizerStates;
};

describe("largestModel({dataParallel, zeroStage, gpuBytes})", () => {
  it("reproduces ZeRO Table 2 (Nd = 64, 32 GB): 2B, 7.6B, 14.4B, 128B", () => {
    const got = ([0, 1, 2, 3] as const).map((s) => largestModel({ dataParallel: 64, zeroStage: s, gpuBytes: 32e9 }));
    expect(got.map((p) => Number((p / 1e9).toFixed(1)))).toEqual([2, 7.6, 14.4, 128]);
    expect(got[1]).toBe(7_641_791_042);
    expect(states(7_641_791_042, 64, 1)).toBe(32e9); // exactly at the limit
  });
  it("the rows of Table 2 with model parallelism m: the same per-GPU answer, m times the model (m = 16, 1024 GPUs: 32B … 2T)", () => {
    expect(Math.round(16 * largestModel({ dataParallel: 64, zeroStage: 3, gpuBytes: 32e9 }) / 1e12)).toBe(2);
    expect(Math.round(16 * largestModel({ dataParallel: 64, zeroStage: 0, gpuBytes: 32e9 }) / 1e9)).toBe(32);
  });
  it("edge cases: nothing fits, one GPU, padding, exact integers at 5.5 trillion parameters, bad input", () => {
    expect(largestModel({ dataParallel: 8, zeroStage: 0, gpuBytes: 15 })).toBe(0);
    expect(largestModel({ dataParallel: 1, zeroStage: 3, gpuBytes: 160 })).toBe(10);
    expect(largestModel({ dataParallel: 3, zeroStage: 1, gpuBytes: 100 })).toBe(12); // 48 + 12·4 = 96; 13 would be 52 + 60
    const big = largestModel({ dataParallel: 1024, zeroStage: 3, gpuBytes: 80 * 2 ** 30 });
    expect(states(big, 1024, 3)).toBeLessThanOrEqual(80 * 2 ** 30);
    expect(states(big + 1, 1024, 3)).toBeGreaterThan(80 * 2 ** 30);
    expect(largestModel({ dataParallel: 65536, zeroStage: 3, gpuBytes: 2 ** 40 })).toBe(2 ** 52); // the largest answer, exact
    expect(() => largestModel({ dataParallel: 8, zeroStage: 2, gpuBytes: -1 })).toThrow(/^gpuBytes must be an integer in \[0, 2\^40\], got -1$/);
    expect(() => largestModel({ dataParallel: 0, zeroStage: 2, gpuBytes: 1e9 })).toThrow(/^dataParallel must be an integer in \[1, 65536\], got 0$/);
    expect(() => largestModel({ dataParallel: 8, zeroStage: 4 as ZeroStage, gpuBytes: 1e9 })).toThrow(/zeroStage/);
  });
  it("property: the answer fits and one more parameter does not", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 65536 }), fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<ZeroStage>, fc.integer({ min: 0, max: 2 ** 40 }), (n, s, bytes) => {
      const p = largestModel({ dataParallel: n, zeroStage: s, gpuBytes: bytes });
      if (p > 0) expect(states(p, n, s)).toBeLessThanOrEqual(bytes);
      expect(states(p + 1, n, s)).toBeGreaterThan(bytes);
    }), { numRuns: 300, seed: 5 });
  });
});
