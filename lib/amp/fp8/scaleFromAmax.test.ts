import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { scaleFromAmax } from "./scaleFromAmax.js";
import { FLT_MAX } from "./amaxAndScaleUpdate.js";
import { quantizeFp8 } from "./quantizeFp8.js";

describe("scaleFromAmax", () => {
  it("worked example: fp32(448 / 3), and its power of two below", () => {
    expect(scaleFromAmax(3, 448)).toBe(Math.fround(448 / 3));
    expect(scaleFromAmax(3, 448, { powerOf2Scales: true })).toBe(128);
    expect(scaleFromAmax(448, 448, { powerOf2Scales: true })).toBe(1);
  });

  it("an amax of 0, Infinity or NaN gives 1; a quotient beyond float32 gives FLT_MAX (TE compute_scale_from_amax)", () => {
    for (const a of [0, Infinity, -Infinity, NaN]) expect(scaleFromAmax(a, 448)).toBe(1);
    expect(scaleFromAmax(1e-44, 448)).toBe(FLT_MAX);
    expect(scaleFromAmax(1e-44, 448, { powerOf2Scales: true })).toBe(2 ** 127);
  });

  it("amaxEpsilon floors the amax", () => {
    expect(scaleFromAmax(0, 448, { amaxEpsilon: 1 })).toBe(448);
    expect(scaleFromAmax(0.5, 448, { amaxEpsilon: 1 })).toBe(448);
    expect(scaleFromAmax(2, 448, { amaxEpsilon: 1 })).toBe(224);
  });

  it("rejects a bad fp8Max", () => {
    expect(() => scaleFromAmax(1, 0)).toThrow(/fp8Max must be a positive finite number, got 0/);
  });

  it("property: a tensor cast with its own scale never overflows; a power-of-two scale is within a factor 2 below the exact one", () => {
    fc.assert(fc.property(fc.float({ min: Math.fround(1e-30), max: Math.fround(1e30), noNaN: true }), fc.constantFrom(448, 57344), (amax, max) => {
      const s = scaleFromAmax(amax, max), p = scaleFromAmax(amax, max, { powerOf2Scales: true });
      expect(quantizeFp8(Float32Array.of(amax, -amax), s, max === 448 ? "fp8-e4m3" : "fp8-e5m2").overflow).toBe(0);
      expect(p <= s && s < 2 * p).toBe(true);
      expect(Number.isInteger(Math.log2(p))).toBe(true);
    }), { seed: 2, numRuns: 500 });
  });
});
