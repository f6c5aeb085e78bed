import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { DEFAULT_LIMITS, standardLimit, standardScoresBytes } from "./standardLimit.js";

const sq = (N: number, d = 64) => ({ B: 1, H: 1, Nq: N, Nk: N, d });

describe("standardLimit", () => {
  it("standardScoresBytes is 4·B·H·Nq·Nk: 256 MiB at N = 8192", () => {
    expect(standardScoresBytes(sq(8192, 16))).toBe(256 * 2 ** 20);
    expect(standardScoresBytes({ B: 2, H: 3, Nq: 5, Nk: 7, d: 1 })).toBe(4 * 2 * 3 * 5 * 7);
  });

  it("standardLimit with WebGPU's default limits: N = 4096 fits (64 MiB), N = 8192 exceeds the 128 MiB binding, N = 16384 the 256 MiB buffer", () => {
    expect(standardLimit(sq(4096))).toBeNull();
    expect(standardLimit(sq(8192))).toBe("its N×N score buffer needs 256 MiB, over this device's maxStorageBufferBindingSize of 128 MiB");
    expect(standardLimit(sq(16384))).toBe("its N×N score buffer needs 1,024 MiB, over this device's maxBufferSize of 256 MiB");
  });

  it("standardLimit is null exactly when the score buffer fits the binding (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 20000 }), fc.integer({ min: 1, max: 4 }), (N, H) => {
      const shape = { B: 1, H, Nq: N, Nk: N, d: 8 };
      expect(standardLimit(shape) === null).toBe(standardScoresBytes(shape) <= DEFAULT_LIMITS.maxStorageBufferBindingSize);
    }), { seed: 8, numRuns: 200 });
  });
});
