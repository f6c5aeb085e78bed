import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { fp8Rounder, type Fp8FormatName } from "./fp8Rounder.js";
import { round } from "./round.js";
import { decode } from "./decode.js";
import { c10E4m3fnBits, c10E5m2Bits } from "./c10Casts.js";

const FP8: Fp8FormatName[] = ["fp8-e4m3", "fp8-e5m2"];
const same = (a: number, b: number) => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));
/** Every finite non-negative value of a format, ascending (its positive bit patterns decoded). */
const values = (f: Fp8FormatName) => Array.from({ length: 128 }, (_, b) => decode(f, b)).filter(Number.isFinite);

describe("fp8Rounder", () => {
  it("worked examples at the edges of E4M3 and E5M2", () => {
    const e4 = fp8Rounder("fp8-e4m3"), e5 = fp8Rounder("fp8-e5m2");
    expect(e4(464)).toBe(448); // the tie above 448 goes to 448 (fraction 110 is even)
    expect(e4(464.0001)).toBeNaN();
    expect(e5(61440)).toBe(Infinity); // the tie above 57344 goes up (fraction 11 is odd)
    expect(e5(61439.99)).toBe(57344);
    expect(e4(2 ** -10)).toBe(0); // half the smallest subnormal: a tie, to the even 0
    expect(e4(2 ** -10 * 1.0001)).toBe(2 ** -9);
    expect(e4(3 * 2 ** -10)).toBe(2 ** -8); // a tie between 1·2^-9 (odd) and 2·2^-9 (even)
    expect(Object.is(e4(-0), -0)).toBe(true);
    expect(Object.is(e4(-1e-9), -0)).toBe(true);
  });

  it("reproduces the published figures of OCP OFP8 v1.0 Table 1 (max 448 and 57344, min subnormals 2^-9 and 2^-16)", () => {
    expect(fp8Rounder("fp8-e4m3")(448)).toBe(448);
    expect(fp8Rounder("fp8-e4m3", { saturate: true })(1e9)).toBe(448);
    expect(fp8Rounder("fp8-e5m2", { saturate: true })(1e9)).toBe(57344);
    expect(fp8Rounder("fp8-e4m3")(2 ** -9)).toBe(2 ** -9);
    expect(fp8Rounder("fp8-e5m2")(2 ** -16)).toBe(2 ** -16);
    expect(fp8Rounder("fp8-e4m3")(2 ** -9 * 0.49)).toBe(0);
  });

  it("special values: NaN stays NaN; ±Infinity gives NaN in E4M3, ±Infinity in E5M2, ±max when saturating", () => {
    for (const f of FP8) for (const saturate of [false, true]) {
      const r = fp8Rounder(f, { saturate });
      expect(r(NaN)).toBeNaN();
      expect(same(r(-Infinity), round(f, -Infinity, { saturate }))).toBe(true);
      expect(same(r(Infinity), round(f, Infinity, { saturate }))).toBe(true);
    }
    expect(fp8Rounder("fp8-e4m3")(Infinity)).toBeNaN();
    expect(fp8Rounder("fp8-e5m2")(-Infinity)).toBe(-Infinity);
    expect(fp8Rounder("fp8-e5m2", { saturate: true })(-Infinity)).toBe(-57344);
  });

  it("equals round() on every FP8 value, every midpoint between neighbours and their float64 neighbours", () => {
    for (const f of FP8) for (const saturate of [false, true]) {
      const r = fp8Rounder(f, { saturate }), v = values(f);
      const probes: number[] = [];
      for (let i = 0; i < v.length; i++) {
        const mid = i + 1 < v.length ? (v[i] + v[i + 1]) / 2 : v[i] + (v[i] - v[i - 1]) / 2; // above max: the overflow midpoint
        for (const x of [v[i], mid, mid * (1 + 2 ** -40), mid * (1 - 2 ** -40)]) probes.push(x, -x);
      }
      for (const x of probes) expect(same(r(x), round(f, x, { saturate })), `${f} saturate=${saturate} x=${x}`).toBe(true);
    }
  });

  it("equals round() on random float64 values and on float32 values across the range (property)", () => {
    fc.assert(fc.property(fc.double({ min: -1e6, max: 1e6 }), fc.float(), fc.boolean(), (x, y, saturate) => {
      for (const f of FP8) {
        const r = fp8Rounder(f, { saturate });
        expect(same(r(x), round(f, x, { saturate }))).toBe(true);
        expect(same(r(y), round(f, y, { saturate }))).toBe(true);
      }
    }), { seed: 8, numRuns: 4000 });
  });

  it("equals PyTorch's c10 casts (an independent bit-level port) on random float32 values: the oracle", () => {
    const e4 = fp8Rounder("fp8-e4m3"), e5 = fp8Rounder("fp8-e5m2");
    fc.assert(fc.property(fc.float({ min: Math.fround(-70000), max: Math.fround(70000), noNaN: true }), (x) => {
      expect(same(e4(x), decode("fp8-e4m3", c10E4m3fnBits(x)))).toBe(true);
      expect(same(e5(x), decode("fp8-e5m2", c10E5m2Bits(x)))).toBe(true);
    }), { seed: 5, numRuns: 5000 });
  });

  it("rejects a format that is not FP8", () => {
    expect(() => fp8Rounder("bf16" as never)).toThrow(/format must be fp8-e4m3 or fp8-e5m2 for fp8Rounder, got "bf16"/);
  });
});
