import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { lossScaleRange } from "./lossScaleRange.js";
import { round } from "../precision/round.js";

/** The definition, k by k, with fp16 rounding of the exact product. */
function byDefinition(grads: ArrayLike<number>, f: number): { minLog2: number; maxLog2: number } | null {
  const g = Array.from(grads);
  if (g.some((x) => !Number.isFinite(x))) return null;
  const nonzero = g.filter((x) => x !== 0);
  const ok: number[] = [];
  for (let k = -126; k <= 127; k++) {
    const scaled = nonzero.map((x) => round("fp16", x * 2 ** k));
    if (scaled.some((x) => !Number.isFinite(x))) continue;
    if (scaled.filter((x) => x === 0).length <= f * nonzero.length) ok.push(k);
  }
  return ok.length ? { minLog2: ok[0]!, maxLog2: ok.at(-1)! } : null;
}

describe("lossScaleRange(grads, maxUnderflowFraction)", () => {
  it("worked example: 1e-9 needs S >= 2^5, 0.25 allows S <= 2^17; allowing a third to underflow lowers the bottom", () => {
    expect(lossScaleRange(Float32Array.of(1e-9, 3e-6, 0.25), 0)).toEqual({ minLog2: 5, maxLog2: 17 });
    expect(lossScaleRange(Float32Array.of(1e-9, 3e-6, 0.25), 1 / 3)).toEqual({ minLog2: -6, maxLog2: 17 });
  });
  it("fp16's edges: 65504 fits at S = 1 and 65520 does not; 2^-25 is a tie that rounds to 0", () => {
    expect(lossScaleRange([65504], 0)!.maxLog2).toBe(0);
    expect(lossScaleRange([65520], 0)!.maxLog2).toBe(-1);
    expect(lossScaleRange([2 ** -25], 0)!.minLog2).toBe(1);
    expect(lossScaleRange([3 * 2 ** -26], 0)!.minLog2).toBe(0); // 1.5·2^-25 rounds up to 2^-24
  });
  it("edge cases: no gradient, zeros only, a NaN or an infinity, no room between the ends, bad fraction", () => {
    expect(lossScaleRange([], 0)).toEqual({ minLog2: -126, maxLog2: 127 });
    expect(lossScaleRange([0, -0], 0)).toEqual({ minLog2: -126, maxLog2: 127 });
    expect(lossScaleRange([1, NaN], 0.5)).toBeNull();
    expect(lossScaleRange([1, -Infinity], 0.5)).toBeNull();
    expect(lossScaleRange([2 ** -126, 2 ** 100], 0)).toBeNull();
    expect(() => lossScaleRange([1], 2)).toThrow(/^maxUnderflowFraction must be a number in \[0, 1\], got 2$/);
  });
  it("property: equals the definition, k by k with fp16 rounding, on random gradients", () => {
    const grad = fc.oneof(fc.constant(0), fc.tuple(fc.double({ min: 1, max: 2, noNaN: true }), fc.integer({ min: -60, max: 20 }), fc.boolean()).map(([m, e, s]) => Math.fround((s ? -1 : 1) * m * 2 ** e)));
    fc.assert(fc.property(fc.array(grad, { maxLength: 30 }), fc.constantFrom(0, 0.01, 0.1, 0.5, 1), (g, f) => {
      expect(lossScaleRange(g, f)).toEqual(byDefinition(g, f));
    }), { numRuns: 300, seed: 17 });
  });
});
