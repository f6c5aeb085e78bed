import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { fewestRanks } from "./fewestRanks.js";
import { zeroModelStateBytes } from "./zeroModelStateBytes.js";

describe("fewestRanks(numParams, stage, bytesPerRank)", () => {
  it("worked example: a trillion parameters need 500 ranks of 32 GB at stage 3 (the ZeRO paper's claim of 1024 GPUs fits)", () => {
    expect(fewestRanks(1e12, 3, 32e9)).toBe(500);
    expect(zeroModelStateBytes(1e12, 500, 3).total).toBeLessThanOrEqual(32e9);
    expect(zeroModelStateBytes(1e12, 499, 3).total).toBeGreaterThan(32e9);
  });
  it("the stages: 7.5B parameters on 32 GB ranks need 46 ranks at stage 1, 7 at stage 2, none at stage 0", () => {
    expect(fewestRanks(7.5e9, 1, 32e9)).toBe(46);
    expect(fewestRanks(7.5e9, 2, 32e9)).toBe(7);
    expect(fewestRanks(7.5e9, 0, 32e9)).toBeNull();
    expect(fewestRanks(7.5e9, 0, 120e9)).toBe(1);
  });
  it("edge cases: no parameter, exactly at the memory, one element per rank, bad input", () => {
    expect(fewestRanks(0, 3, 0)).toBe(1);
    expect(fewestRanks(10, 3, 16)).toBe(10);
    expect(fewestRanks(10, 3, 15)).toBeNull();
    expect(fewestRanks(10, 1, 4 * 10 + 12)).toBe(10);
    expect(() => fewestRanks(10, 4, 100)).toThrow(/^stage must be 0, 1, 2 or 3, got 4$/);
    expect(() => fewestRanks(-1, 3, 100)).toThrow(/numParams/);
    expect(() => fewestRanks(10, 3, -1)).toThrow(/bytesPerRank/);
  });
  it("property: the answer fits and one rank fewer does not", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e9 }), fc.constantFrom(0, 1, 2, 3), fc.integer({ min: 0, max: 2 ** 40 }), (psi, stage, bytes) => {
      const P = fewestRanks(psi, stage, bytes);
      if (P === null) expect(zeroModelStateBytes(psi, psi, stage).total).toBeGreaterThan(bytes); // not even one element per rank fits
      else {
        expect(zeroModelStateBytes(psi, P, stage).total).toBeLessThanOrEqual(bytes);
        if (P > 1) expect(zeroModelStateBytes(psi, P - 1, stage).total).toBeGreaterThan(bytes);
      }
    }), { numRuns: 500, seed: 41 });
  });
});
