import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { relativeError } from "./relativeError.js";

describe("relativeError", () => {
  it("relativeError(g, ref) is ‖g − ref‖/‖ref‖: worked examples", () => {
    expect(relativeError([1, 1], [1, 0])).toBe(1);
    expect(relativeError([3, 4], [0, 0.5].map((x) => x * 10))).toBeCloseTo(Math.sqrt(9 + 1) / 5, 15);
    expect(relativeError(Float32Array.of(2, 2), [2, 2])).toBe(0);
  });
  it("relativeError rejects mismatched lengths and an all-zero reference", () => {
    expect(() => relativeError([1, 2, 3], [1, 2, 3, 4])).toThrow(/g has 3 numbers but ref has 4/);
    expect(() => relativeError([1], [0])).toThrow(/ref is all zeros/);
  });
  it("relativeError is scale-invariant: relativeError(c·g, c·ref) = relativeError(g, ref)", () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.integer({ min: -100, max: 100 }), fc.integer({ min: 1, max: 100 })), { minLength: 1, maxLength: 8 }),
      fc.integer({ min: 1, max: 64 }),
      (pairs, c) => {
        const g = pairs.map(([a]) => a), ref = pairs.map(([, b]) => b);
        expect(relativeError(g.map((x) => x * c), ref.map((x) => x * c))).toBeCloseTo(relativeError(g, ref), 12);
      },
    ));
  });
});
