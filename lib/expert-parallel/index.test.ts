import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { meanSquare } from "./index.js";

// TODO: a worked example, edge cases, a fast-check property, and an oracle or a published figure.
describe("meanSquare", () => {
  it("worked example: [3, 4] gives (9 + 16) / 2 = 12.5", () => {
    expect(meanSquare([3, 4])).toBe(12.5);
  });
  it("throws a RangeError naming xs on an empty array", () => {
    expect(() => meanSquare([])).toThrow(RangeError);
    expect(() => meanSquare([])).toThrow(/xs must not be empty/);
  });
  it("oracle: the mean square is the variance plus the squared mean", () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 40 }), (xs) => {
      const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
      const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length;
      expect(meanSquare(xs)).toBeCloseTo(variance + mean * mean, 6);
    }));
  });
  it("property: a constant array c gives c², and the input is not modified", () => {
    fc.assert(fc.property(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 1, max: 20 }), (c, n) => {
      const xs = Array(n).fill(c);
      expect(meanSquare(xs)).toBe(c * c);
      expect(xs).toEqual(Array(n).fill(c));
    }));
  });
});
