import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { logsumexp } from "./logsumexp.js";

describe("logsumexp", () => {
  it("logsumexp([0, ln 3]) is ln 4 (worked example)", () => {
    expect(logsumexp([0, Math.log(3)])).toBeCloseTo(Math.log(4), 14);
  });
  it("logsumexp stays finite for logits of ±1e4 where log(Σ exp) overflows or underflows", () => {
    expect(Math.log(Math.exp(1e4) + Math.exp(1e4))).toBe(Infinity);
    expect(logsumexp([1e4, 1e4])).toBeCloseTo(1e4 + Math.LN2, 9);
    expect(logsumexp([-1e4, -1e4 - 1])).toBeCloseTo(-1e4 + Math.log(1 + Math.exp(-1)), 9);
  });
  it("logsumexp of an empty or fully masked row is −Infinity, never NaN", () => {
    expect(logsumexp([])).toBe(-Infinity);
    expect(logsumexp([-Infinity, -Infinity])).toBe(-Infinity);
    expect(logsumexp([-Infinity, 2])).toBe(2);
    expect(logsumexp([1, Infinity])).toBe(Infinity);
    expect(logsumexp([1, NaN])).toBeNaN();
  });
  it("logsumexp(x + c) = logsumexp(x) + c and max ≤ logsumexp ≤ max + ln n", () => {
    fc.assert(fc.property(fc.array(fc.double({ min: -50, max: 50, noNaN: true }), { minLength: 1, maxLength: 20 }), fc.double({ min: -1e4, max: 1e4, noNaN: true }), (xs, c) => {
      const a = logsumexp(xs);
      const mx = Math.max(...xs);
      const shifted = logsumexp(xs.map((x) => x + c));
      return a >= mx - 1e-12 && a <= mx + Math.log(xs.length) + 1e-12 && Math.abs(shifted - (a + c)) <= 1e-9 * (1 + Math.abs(c));
    }), { seed: 3, numRuns: 200 });
  });
  it("logsumexp throws a TypeError for a non-array", () => {
    expect(() => logsumexp("abc" as unknown as number[])).toThrow(TypeError);
  });
});
