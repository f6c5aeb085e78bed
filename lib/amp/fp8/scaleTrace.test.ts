import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { scaleTrace } from "./scaleTrace.js";
import { amaxAndScaleUpdate } from "./amaxAndScaleUpdate.js";
import { quantizeFp8 } from "./quantizeFp8.js";

describe("scaleTrace", () => {
  it("worked example: a history of 1 overflows on a doubling amax; a margin of 1 absorbs it", () => {
    const r = scaleTrace([100, 100, 200], { amaxHistoryLen: 1 }, "fp8-e4m3");
    expect(r.scale).toEqual([1, Math.fround(4.48), Math.fround(4.48)]);
    expect(r.overflow).toEqual([false, false, true]);
    expect(scaleTrace([100, 100, 200], { amaxHistoryLen: 1, margin: 1 }, "fp8-e4m3").overflow).toEqual([false, false, false]);
  });

  it("the first step casts with scale 1 (TE's initial scale): an amax above 464 overflows E4M3 at once", () => {
    expect(scaleTrace([464, 1], {}, "fp8-e4m3").overflow).toEqual([false, false]);
    expect(scaleTrace([465, 1], {}, "fp8-e4m3").overflow).toEqual([true, false]);
    expect(scaleTrace([61440], {}, "fp8-e5m2").overflow).toEqual([true]); // E5M2's tie at 61440 rounds up
  });

  it("a spike every 4 steps: a history of 3 forgets it and overflows every time, a history of 4 remembers it", () => {
    const amaxes = Array.from({ length: 16 }, (_, t) => (t % 4 === 3 ? 64 : 1));
    expect(scaleTrace(amaxes, { amaxHistoryLen: 3 }, "fp8-e4m3").overflow.filter(Boolean).length).toBe(4);
    expect(scaleTrace(amaxes, { amaxHistoryLen: 4 }, "fp8-e4m3").overflow.filter(Boolean).length).toBe(1); // only the first spike
  });

  it("resumes from a checkpointed state: the history it holds is in the window", () => {
    const initial = { amaxHistory: [0, 0, 50], scale: Math.fround(448 / 50) };
    expect(scaleTrace([10, 40], { amaxHistoryLen: 3 }, "fp8-e4m3", initial).scale).toEqual([initial.scale, initial.scale]);
    expect(scaleTrace([10, 40], { amaxHistoryLen: 3 }, "fp8-e4m3").scale[1]).toBe(Math.fround(448 / 10));
  });

  it("special values: an infinite amax overflows and freezes the scale; a zero amax keeps it without rolling", () => {
    const r = scaleTrace([10, Infinity, 10, 10, 10], { amaxHistoryLen: 2 }, "fp8-e4m3");
    expect(r.overflow).toEqual([false, true, false, false, false]);
    expect(r.scale.slice(2)).toEqual([Math.fround(44.8), Math.fround(44.8), Math.fround(44.8)]);
    // zero steps do not roll: the 10 of step 0 is still in the 2-step window at step 3 (TE's Python fallback, which
    // always rolls, would have forgotten it and given 448 / 1 at step 4)
    const z = scaleTrace([10, 0, 0, 1, 1], { amaxHistoryLen: 2 }, "fp8-e4m3");
    expect(z.scale).toEqual([1, Math.fround(44.8), Math.fround(44.8), Math.fround(44.8), Math.fround(44.8)]);
    expect(z.final.scale).toBe(448);
  });

  it("names bad input", () => {
    expect(() => scaleTrace([1, NaN], {}, "fp8-e4m3")).toThrow(/amaxes\[1\] must be an amax >= 0, got NaN/);
    expect(() => scaleTrace([1], { amaxHistoryLen: 4 }, "fp8-e4m3", { amaxHistory: [0, 0, 0], scale: 1 })).toThrow(/initial.amaxHistory must have amaxHistoryLen = 4 entries, got 3/);
    expect(() => scaleTrace([1], { amaxHistoryLen: 1 }, "fp8-e4m3", { amaxHistory: [-1], scale: 1 })).toThrow(/initial.amaxHistory\[0\] must be an amax >= 0, got -1/);
    expect(() => scaleTrace([1], { amaxHistoryLen: 1 }, "fp8-e4m3", { amaxHistory: [0], scale: 0 })).toThrow(/initial.scale must be a positive finite number, got 0/);
  });

  it("property: each step's overflow flag is quantizeFp8's verdict on the amax with that step's scale, and each scale is the update of the one before", () => {
    fc.assert(fc.property(fc.array(fc.float({ min: 0, max: Math.fround(1e5), noNaN: true }), { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 3 }), fc.constantFrom("max" as const, "most_recent" as const), fc.constantFrom("fp8-e4m3" as const, "fp8-e5m2" as const),
      (amaxes, L, margin, algo, f) => {
        const r = scaleTrace(amaxes, { amaxHistoryLen: L, margin, amaxComputeAlgo: algo }, f);
        let h = new Array(L).fill(0), s = 1;
        amaxes.forEach((a, t) => {
          expect(r.scale[t]).toBe(s);
          expect(r.overflow[t]).toBe(quantizeFp8(Float32Array.of(a), s, f).overflow === 1);
          const u = amaxAndScaleUpdate([Math.max(h[0], a), ...h.slice(1)], s, f === "fp8-e4m3" ? 448 : 57344, { margin, amaxComputeAlgo: algo });
          h = u.amaxHistory; s = u.scale;
        });
      }), { seed: 13, numRuns: 300 });
  });
});
