import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { amaxAndScaleUpdate, FLT_MAX } from "./amaxAndScaleUpdate.js";
import { quantizeFp8 } from "./quantizeFp8.js";

const MAX = { margin: 0, amaxComputeAlgo: "max" } as const;
const RECENT = { margin: 0, amaxComputeAlgo: "most_recent" } as const;

describe("amaxAndScaleUpdate", () => {
  it("worked example: the history rolls (the oldest amax leaves, this step's goes last, slot 0 is cleared) and scale = 448 / max", () => {
    expect(amaxAndScaleUpdate([3.5, 0, 7], 1, 448, MAX)).toEqual({ amaxHistory: [0, 7, 3.5], scale: 64, amax: 7 });
    // [h0, h1, h2, h3] → [0, h2, h3, h0]: h1 (the oldest) is dropped
    expect(amaxAndScaleUpdate([1, 2, 3, 4], 1, 448, MAX).amaxHistory).toEqual([0, 3, 4, 1]);
    expect(amaxAndScaleUpdate([1, 2, 3, 4], 1, 448, RECENT)).toMatchObject({ amax: 1, scale: 448 });
  });

  it("matches TE's documented formula (FP8_MAX / amax) / 2^margin (recipe/__init__.py, DelayedScaling notes)", () => {
    for (const margin of [0, 1, 3, 5]) for (const amax of [0.3, 7, 1e-3, 1234.5]) {
      const { scale } = amaxAndScaleUpdate([amax], 1, 57344, { margin, amaxComputeAlgo: "max" });
      expect(scale).toBe(Math.fround(Math.fround(57344 / amax) / 2 ** margin));
    }
  });

  it("a step whose amax is 0 (the tensor was not cast, or is all zeros) keeps the history and the scale (TE's kernel_bulk)", () => {
    expect(amaxAndScaleUpdate([0, 5, 7], 2, 448, MAX)).toEqual({ amaxHistory: [0, 5, 7], scale: 2, amax: 0 });
    expect(amaxAndScaleUpdate([0, 5, 7], 2, 448, RECENT).scale).toBe(2);
  });

  it("an infinite amax keeps the previous scale, and with 'max' freezes it until it leaves the window", () => {
    let s = amaxAndScaleUpdate([Infinity, 0, 0], 4, 448, MAX);
    expect(s.scale).toBe(4);
    expect(s.amaxHistory).toEqual([0, 0, Infinity]);
    s = amaxAndScaleUpdate([10, ...s.amaxHistory.slice(1)], s.scale, 448, MAX); // [0, Inf, 10]
    expect(s.scale).toBe(4);
    s = amaxAndScaleUpdate([10, ...s.amaxHistory.slice(1)], s.scale, 448, MAX); // window [10, Inf, 10] → [0, 10, 10]
    expect(s.scale).toBe(4); // the third update still saw the Inf: L = 3 updates frozen
    s = amaxAndScaleUpdate([10, ...s.amaxHistory.slice(1)], s.scale, 448, MAX); // window [10, 10, 10]: the Inf has left
    expect(s.scale).toBe(Math.fround(448 / 10));
  });

  it("NaN in the history is ignored by 'max' as CUDA's fmaxf ignores it; a NaN 'most_recent' keeps the scale", () => {
    expect(amaxAndScaleUpdate([2, NaN, 4], 1, 448, MAX)).toMatchObject({ scale: 112, amax: 4 });
    expect(amaxAndScaleUpdate([NaN, 2], 3, 448, RECENT).scale).toBe(3);
  });

  it("a scale that overflows float32 becomes FLT_MAX; the float32 rounding of the quotient is kept", () => {
    expect(amaxAndScaleUpdate([1e-45], 1, 448, MAX).scale).toBe(FLT_MAX);
    expect(amaxAndScaleUpdate([3], 1, 448, MAX).scale).toBe(Math.fround(448 / 3));
    expect(amaxAndScaleUpdate([4], 1, 448, { margin: 200, amaxComputeAlgo: "max" }).scale).toBe(0); // 2^-200 is 0 in float32, as std::pow(2.f, -200)
  });

  it("a history of length 1 keeps only this step", () => {
    expect(amaxAndScaleUpdate([8], 1, 448, MAX)).toEqual({ amaxHistory: [0], scale: 56, amax: 8 });
  });

  it("does not modify its input and names bad input", () => {
    const h = [1, 2, 3];
    amaxAndScaleUpdate(h, 1, 448, MAX);
    expect(h).toEqual([1, 2, 3]);
    expect(() => amaxAndScaleUpdate([], 1, 448, MAX)).toThrow(/amaxHistory must be a non-empty array of amaxes >= 0, got an empty array/);
    expect(() => amaxAndScaleUpdate([1, -1], 1, 448, MAX)).toThrow(/got -1 at 1/);
    expect(() => amaxAndScaleUpdate([1], Infinity, 448, MAX)).toThrow(/scale must be a finite number >= 0, got Infinity/);
  });

  it("property: with 'max', the new scale never overflows a tensor whose amax is within the history window", () => {
    fc.assert(fc.property(
      fc.array(fc.float({ min: Math.fround(1e-6), max: Math.fround(1e6), noNaN: true }), { minLength: 1, maxLength: 16 }),
      fc.integer({ min: 0, max: 4 }), fc.constantFrom("fp8-e4m3", "fp8-e5m2"), fc.double({ min: 0, max: 1, noNaN: true }),
      (history, margin, format, frac) => {
        const max = format === "fp8-e4m3" ? 448 : 57344;
        const { scale, amax } = amaxAndScaleUpdate(history, 1, max, { margin, amaxComputeAlgo: "max" });
        const x = Math.fround(amax * frac); // any value up to the window's amax
        expect(quantizeFp8(Float32Array.of(x, -amax), scale, format).overflow).toBe(0);
      }), { seed: 4, numRuns: 500 });
  });
});
