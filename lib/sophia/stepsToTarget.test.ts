import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { trailingMean, stepsToTarget } from "./stepsToTarget.js";

describe("stepsToTarget", () => {
  it("worked examples", () => {
    expect(trailingMean([4, 2, 0], 2)).toEqual([4, 3, 1]);
    expect(stepsToTarget([5, 4, 3, 2, 1], 3, 1)).toBe(3);
    expect(stepsToTarget([5, 4, 3, 2, 1], 3, 2)).toBe(4); // means 5, 4.5, 3.5, 2.5
    expect(stepsToTarget([5, 4], 1)).toBeNull();
  });
  it("property: on a decreasing curve with window 1 it is the first index with loss <= target, plus 1", () => {
    fc.assert(fc.property(fc.array(fc.double({ min: 0, max: 10, noNaN: true }), { minLength: 1, maxLength: 30 }), fc.double({ min: 0, max: 10, noNaN: true }), (xs, t) => {
      const d = [...xs].sort((a, b) => b - a);
      const want = d.findIndex((v) => v <= t);
      return stepsToTarget(d, t, 1) === (want < 0 ? null : want + 1);
    }));
  });
  it("bad input", () => {
    expect(() => trailingMean([1], 0)).toThrow(/window must be an integer >= 1, got 0/);
    expect(() => stepsToTarget([1], NaN)).toThrow(/target must be finite, got NaN/);
  });
});
