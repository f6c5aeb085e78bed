import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { quantizeFp8 } from "./quantizeFp8.js";
import { round } from "../../precision/round.js";
import { ulp } from "../../precision/ulp.js";

describe("quantizeFp8", () => {
  it("worked example: saturation, underflow and the amax", () => {
    const q = quantizeFp8(Float32Array.of(1, 500, 2 ** -12), 1, "fp8-e4m3");
    expect([...q.data]).toEqual([1, 448, 0]);
    expect(q).toMatchObject({ scale: 1, scaleInv: 1, amax: 500, overflow: 1, underflow: 1 });
  });

  it("overflow follows the rounding at the format's edge: E4M3's tie at 464 rounds to 448, E5M2's at 61440 overflows", () => {
    expect(quantizeFp8(Float32Array.of(464), 1, "fp8-e4m3").overflow).toBe(0);
    expect(quantizeFp8(Float32Array.of(464.5), 1, "fp8-e4m3").overflow).toBe(1);
    expect(quantizeFp8(Float32Array.of(61439.99), 1, "fp8-e5m2").overflow).toBe(0);
    const e5 = quantizeFp8(Float32Array.of(61440, -1e9, Infinity), 1, "fp8-e5m2");
    expect(e5.overflow).toBe(3);
    expect([...e5.data]).toEqual([57344, -57344, 57344]); // saturated, never Infinity
  });

  it("underflow: half the smallest subnormal is a tie that rounds to 0 and counts; ±0 do not count; −0 stays −0", () => {
    const q = quantizeFp8(Float32Array.of(2 ** -10, 2 ** -10 * 1.5, 0, -0, -(2 ** -17)), 1, "fp8-e4m3");
    expect(q.underflow).toBe(2);
    expect([...q.data].map((v) => Object.is(v, -0) ? "-0" : v)).toEqual([0, 2 ** -9, 0, "-0", "-0"]);
    expect(quantizeFp8(Float32Array.of(2 ** -17), 1, "fp8-e5m2").underflow).toBe(1); // E5M2: below half of 2^-16
  });

  it("NaN stays NaN, counts as neither, and is ignored by the amax (CUDA fmaxf)", () => {
    const q = quantizeFp8(Float32Array.of(NaN, 3), 2, "fp8-e4m3");
    expect(q.data[0]).toBeNaN();
    expect(q).toMatchObject({ amax: 3, overflow: 0, underflow: 0 });
  });

  it("the scaled value is rounded to float32 first, as TE computes elt * scale in float", () => {
    const x = 1 + 2 ** -20, s = 3;
    expect(quantizeFp8(Float32Array.of(x), s, "fp8-e4m3").data[0]).toBe(round("fp8-e4m3", Math.fround(x * s)));
  });

  it("rejects a bad scale", () => {
    expect(() => quantizeFp8(Float32Array.of(1), NaN, "fp8-e4m3")).toThrow(/scale must be a finite number >= 0, got NaN/);
  });

  it("property: with a power-of-two scale, dequantize(quantize(x)) is within half an ulp of the format at the scale, the oracle round()", () => {
    fc.assert(fc.property(fc.float({ min: Math.fround(-1e4), max: Math.fround(1e4), noNaN: true }), fc.integer({ min: -20, max: 10 }), fc.constantFrom("fp8-e4m3" as const, "fp8-e5m2" as const), (x, e, f) => {
      const s = 2 ** e, q = quantizeFp8(Float32Array.of(x), s, f);
      if (q.overflow) return;
      expect(q.data[0]).toBe(round(f, x * s, { saturate: true }));
      expect(Math.abs(q.data[0] * q.scaleInv - x)).toBeLessThanOrEqual(ulp(f, x * s) / 2 / s);
    }), { seed: 6, numRuns: 2000 });
  });
});
