import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { ulp, nextUp, nextDown } from "./ulp.js";
import { decompose } from "./decompose.js";
import { binade, roundHalfEven } from "./binade.js";
import { FORMAT_NAMES, FORMATS } from "./formats.js";
import { round } from "./round.js";

describe("ulp, nextUp, nextDown", () => {
  it("ulp(format, x): worked examples (fp16 spacing 2^-10 at 1, 2 at 2048, 32 at 65504; min subnormal at 0)", () => {
    expect(ulp("fp16", 1)).toBe(2 ** -10);
    expect(ulp("fp16", 2048)).toBe(2);
    expect(ulp("fp16", 65504)).toBe(32);
    expect(ulp("fp16", 0)).toBe(2 ** -24);
    expect(ulp("fp16", 1e-7)).toBe(2 ** -24);
    expect(ulp("bf16", 1)).toBe(2 ** -7);
    expect(ulp("fp8-e4m3", 448)).toBe(32);
    expect(() => ulp("fp16", Infinity)).toThrow("x must be a finite number, got Infinity");
  });

  it("nextUp and nextDown step one pattern: 1 → 1 + 2^-10, 65504 → Infinity, 0 → ±min subnormal", () => {
    expect(nextUp("fp16", 1)).toBe(1 + 2 ** -10);
    expect(nextDown("fp16", 1)).toBe(1 - 2 ** -11);
    expect(nextUp("fp16", 65504)).toBe(Infinity);
    expect(nextDown("fp16", Infinity)).toBe(65504);
    expect(nextUp("fp16", -0)).toBe(2 ** -24);
    expect(nextDown("fp16", 0)).toBe(-(2 ** -24));
    expect(nextUp("fp16", -(2 ** -24))).toBe(-0);
    expect(nextUp("fp16", -Infinity)).toBe(-65504);
    expect(() => nextUp("fp8-e4m3", 448)).toThrow(/no infinity/);
    expect(() => nextUp("fp16", 0.1)).toThrow(/representable in fp16/);
    expect(() => nextUp("fp16", NaN)).toThrow(RangeError);
  });

  for (const fmt of FORMAT_NAMES) {
    it(`nextUp('${fmt}', r) − r = ulp(r) for positive representable r below max, and nextDown undoes nextUp`, () => {
      const f = FORMATS[fmt];
      fc.assert(fc.property(fc.double({ min: 0, max: f.maxFinite, noNaN: true }), (x) => {
        const r = round(fmt, x);
        if (r >= f.maxFinite) return;
        const up = nextUp(fmt, r);
        expect(up - r).toBe(ulp(fmt, r));
        expect(nextDown(fmt, up)).toBe(r);
      }), { seed: 3, numRuns: 1000 });
    });
  }
});

describe("decompose(format, x)", () => {
  it("decompose('fp16', 1.5) gives sign 0, exponent 01111, fraction 1000000000", () => {
    const d = decompose("fp16", 1.5);
    expect([d.signBit, d.exponentField, d.mantissaField, d.kind, d.exponent, d.significand, d.hex]).toEqual(["0", "01111", "1000000000", "normal", 0, 1.5, "0x3e00"]);
  });

  it("decompose classifies zero, subnormal, infinity and NaN, and reports the rounding error", () => {
    expect(decompose("fp16", -0).kind).toBe("zero");
    expect(decompose("fp16", -0).signBit).toBe("1");
    const sub = decompose("fp16", 3 * 2 ** -24);
    expect([sub.kind, sub.exponentField, sub.mantissaField, sub.exponent, sub.significand]).toEqual(["subnormal", "00000", "0000000011", -14, 3 / 1024]);
    expect(decompose("fp16", 1e6).kind).toBe("infinity");
    expect(decompose("fp8-e4m3", 1e6).kind).toBe("nan");
    expect(decompose("fp8-e4m3", 1e6).error).toBeNaN();
    const tenth = decompose("fp16", 0.1);
    expect(tenth.value).toBe(0.0999755859375);
    expect(tenth.error).toBeCloseTo(0.0999755859375 - 0.1, 15);
    expect(tenth.relativeError).toBeLessThanOrEqual(FORMATS.fp16.machineEpsilon / 2);
  });

  it("decompose: value = (−1)^sign · significand · 2^exponent for finite values", () => {
    for (const fmt of FORMAT_NAMES) {
      fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const d = decompose(fmt, x);
        if (d.significand === null || d.exponent === null) return;
        expect((d.signBit === "1" ? -1 : 1) * d.significand * 2 ** d.exponent).toBe(d.value);
      }), { seed: 5, numRuns: 500 });
    }
  });
});

describe("binade and roundHalfEven", () => {
  it("binade(a) = floor(log2(a)) exactly, also around powers of two where Math.log2 may be off", () => {
    for (let e = -1074; e <= 1023; e++) {
      expect(binade(2 ** e)).toBe(e);
      if (e > -1022) expect(binade(2 ** e * (1 - 2 ** -53))).toBe(e - 1); // the float64 just below 2^e
      if (e > -1074 && e < 1023) expect(binade(2 ** e * 1.5)).toBe(e);
    }
    expect(() => binade(0)).toThrow(RangeError);
  });

  it("roundHalfEven rounds ties to the even integer", () => {
    expect([0.5, 1.5, 2.5, 2.4999, 2.5001, 7].map(roundHalfEven)).toEqual([0, 2, 2, 2, 3, 7]);
  });
});
