import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { MX_BLOCK_SIZE, mxScaleExponent, quantizeMx } from "./mxfp8.js";

describe("MXFP8", () => {
  it("OCP MX v1.0: 32-element blocks; shared exponent ⌊log2 amax⌋ − 8 (E4M3's emax), as microsoft/microxcaling computes it", () => {
    expect(MX_BLOCK_SIZE).toBe(32);
    expect(mxScaleExponent(448)).toBe(0);
    expect(mxScaleExponent(500)).toBe(0); // 500 / 2^0 is clamped to 448
    expect(mxScaleExponent(512)).toBe(1);
    expect(mxScaleExponent(1)).toBe(-8);
  });

  it("TE's rule rounds the exponent of amax / 448 up, so the block's largest value never clamps", () => {
    expect(mxScaleExponent(448, "te")).toBe(0);
    expect(mxScaleExponent(500, "te")).toBe(1);
    expect(mxScaleExponent(1, "te")).toBe(-8); // 1 / 448 = 1.14 · 2^-9 → 2^-8
  });

  it("an all-zero block gets −127; exponents stay in E8M0's [−127, 127]", () => {
    expect(mxScaleExponent(0)).toBe(-127);
    expect(mxScaleExponent(1e-44)).toBe(-127);
    expect(mxScaleExponent(3e38)).toBe(127 - 8); // ⌊log2 3e38⌋ = 127
    expect(() => mxScaleExponent(NaN)).toThrow(/amax must be a finite number >= 0, got NaN/);
    expect(() => mxScaleExponent(1, "x" as never)).toThrow(/rule must be "ocp" or "te"/);
  });

  it("quantizeMx: the OCP rule clamps a block maximum in (464, 512) · 2^e, TE's never does", () => {
    expect(quantizeMx(Float32Array.of(500, 1)).clamped).toBe(1);
    expect(quantizeMx(Float32Array.of(500, 1)).data[0]).toBe(448);
    expect(quantizeMx(Float32Array.of(500, 1), "te")).toMatchObject({ clamped: 0, exponents: [1] });
    const v = Float32Array.from({ length: 70 }, (_, i) => i); // 3 blocks: 32, 32, 6
    expect(quantizeMx(v).exponents.length).toBe(3);
    expect(() => quantizeMx(Float32Array.of(1, Infinity))).toThrow(/values must be finite, got Infinity at 1/);
  });

  it("property: with TE's rule nothing clamps; with either rule every block's largest value keeps 3 fraction bits of precision", () => {
    fc.assert(fc.property(fc.array(fc.float({ min: Math.fround(-1e6), max: Math.fround(1e6), noNaN: true }), { minLength: 1, maxLength: 64 }), (xs) => {
      const v = Float32Array.from(xs), amax = Math.max(...xs.map(Math.abs));
      expect(quantizeMx(v, "te").clamped).toBe(0);
      if (amax > 1e-30) for (const rule of ["ocp", "te"] as const) {
        const q = quantizeMx(v, rule), i = xs.findIndex((x) => Math.abs(x) === amax);
        expect(Math.abs(q.data[i] - v[i]) / amax).toBeLessThanOrEqual(rule === "te" ? 2 ** -4 : 0.125);
      }
    }), { seed: 12, numRuns: 300 });
  });
});
