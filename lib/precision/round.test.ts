import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { f16round } from "@petamoriken/float16";
import { round, isRepresentable } from "./round.js";
import { FORMATS, FORMAT_NAMES } from "./formats.js";
import { nextUp, nextDown, ulp } from "./ulp.js";
import { encode } from "./encode.js";
import { decode } from "./decode.js";
import { c10Bf16Bits, c10E4m3fnBits, c10E5m2Bits, c10StyleTf32Bits } from "./c10Casts.js";

const SEED = 20261129;

/** ≥ 100,000 seeded float32 values: fast-check's float() (biased to edge cases) plus fp16's subnormal range and overflow boundary. */
function float32Sample(): number[] {
  const f = Math.fround;
  return [
    ...fc.sample(fc.float(), { numRuns: 40_000, seed: SEED }),
    ...fc.sample(fc.float({ min: f(-(2 ** -13)), max: f(2 ** -13), noNaN: true }), { numRuns: 30_000, seed: SEED + 1 }), // fp16 subnormals and below
    ...fc.sample(fc.float({ min: 65000, max: 66000, noNaN: true }), { numRuns: 20_000, seed: SEED + 2 }), // overflow boundary
    ...fc.sample(fc.float({ min: -70000, max: 70000, noNaN: true }), { numRuns: 20_000, seed: SEED + 3 }),
    65504, 65519.99, 65520, 65519.998046875, -65520, 65536, 2 ** -24, 2 ** -25, 3 * 2 ** -26, 2 ** -25 + 2 ** -40,
  ].map(f);
}

describe("round(format, x)", () => {
  it("round('fp16', x) agrees with @petamoriken/float16's f16round on 110,000 seeded float32 values", () => {
    const xs = float32Sample();
    expect(xs.length).toBeGreaterThanOrEqual(100_000);
    const bad = xs.filter((x) => !Object.is(round("fp16", x), f16round(x)));
    expect(bad.slice(0, 5)).toEqual([]);
  });

  it("round('fp16', x) agrees with f16round on float64 values too (single rounding from float64)", () => {
    const xs = fc.sample(fc.double({ min: -70000, max: 70000, noNaN: true }), { numRuns: 20_000, seed: SEED });
    expect(xs.filter((x) => !Object.is(round("fp16", x), f16round(x)))).toEqual([]);
  });

  it("round('fp32', x) equals Math.fround(x) on float64 values", () => {
    const xs = fc.sample(fc.double(), { numRuns: 30_000, seed: SEED });
    expect(xs.filter((x) => !Object.is(round("fp32", x), Math.fround(x)))).toEqual([]);
  });

  it("encode(bf16|tf32|fp8, x) equals PyTorch's c10 bit-trick casts on float32 values", () => {
    const xs = float32Sample().filter((_, i) => i % 2 === 0);
    const extra = fc.sample(fc.float({ min: -600, max: 600, noNaN: true }), { numRuns: 20_000, seed: SEED + 4 });
    const oracles: [string, (x: number) => number][] = [["bf16", c10Bf16Bits], ["tf32", c10StyleTf32Bits], ["fp8-e4m3", c10E4m3fnBits], ["fp8-e5m2", c10E5m2Bits]];
    for (const [fmt, oracle] of oracles) {
      const bad = [...xs, ...extra].filter((x) => {
        const mine = round(fmt, x);
        if (Number.isNaN(mine)) return !Number.isNaN(decode(fmt, oracle(x)));
        return encode(fmt, x) !== oracle(x);
      });
      expect({ fmt, bad: bad.slice(0, 3) }).toEqual({ fmt, bad: [] });
    }
  });

  it("round rounds ties to even: fp16 1 + 2^-11 → 1, 1 + 3·2^-11 → 1 + 2^-9; bf16 1.01171875 → 1.015625", () => {
    expect(round("fp16", 1 + 2 ** -11)).toBe(1);
    expect(round("fp16", 1 + 3 * 2 ** -11)).toBe(1 + 2 ** -9);
    expect(round("fp16", 1 + 2 ** -11 + 2 ** -30)).toBe(1 + 2 ** -10);
    expect(round("bf16", 1.01171875)).toBe(1.015625); // 1 + 3·2^-8: tie between 1 + 2^-7 (odd) and 1 + 2^-6 (even)
    expect(round("fp16", 2049)).toBe(2048); // integers above 2048 are spaced by 2
    expect(round("fp16", 2051)).toBe(2052);
  });

  it("round handles fp16's overflow boundary like PyTorch: 65519.99 → 65504, 65520 → Infinity", () => {
    expect(round("fp16", 65519.99)).toBe(65504);
    expect(round("fp16", 65520)).toBe(Infinity);
    expect(round("fp16", -65520)).toBe(-Infinity);
    expect(round("fp16", 65520, { saturate: true })).toBe(65504);
    expect(round("fp16", -Infinity, { saturate: true })).toBe(-65504);
  });

  it("round overflows fp8-e4m3 (E4M3FN) to NaN, 464 ties down to 448, and saturate clamps to ±448", () => {
    expect(round("fp8-e4m3", 464)).toBe(448); // tie between 448 (mantissa 110) and 480 (not a value): even
    expect(round("fp8-e4m3", 465)).toBeNaN();
    expect(round("fp8-e4m3", Infinity)).toBeNaN();
    expect(round("fp8-e4m3", -1e6, { saturate: true })).toBe(-448);
    expect(round("fp8-e4m3", Infinity, { saturate: true })).toBe(448);
    expect(round("fp8-e4m3", NaN, { saturate: true })).toBeNaN();
    expect(round("fp8-e5m2", 61439)).toBe(57344);
    expect(round("fp8-e5m2", 61440)).toBe(Infinity); // tie with an odd max goes up
  });

  it("round keeps signed zeros, underflows below half the min subnormal to ±0, and keeps NaN and infinities", () => {
    expect(Object.is(round("fp16", -0), -0)).toBe(true);
    expect(Object.is(round("fp16", -(2 ** -26)), -0)).toBe(true);
    expect(round("fp16", 2 ** -25)).toBe(0); // tie between 0 (even) and 2^-24
    expect(round("fp16", 2 ** -25 + 2 ** -60)).toBe(2 ** -24);
    expect(round("fp16", 3 * 2 ** -25)).toBe(2 ** -23);
    expect(round("bf16", NaN)).toBeNaN();
    expect(round("bf16", -Infinity)).toBe(-Infinity);
    expect(round("fp32", 1e-46)).toBe(0);
  });

  it("round rounds from float64 once; float64 → fp32 → fp16 can round twice and differ", () => {
    const x = 1 + 2 ** -11 + 2 ** -40;
    expect(round("fp16", x)).toBe(1 + 2 ** -10);
    expect(round("fp16", Math.fround(x))).toBe(1);
  });

  it("round rejects an unknown format and a non-number", () => {
    expect(() => round("fp64", 1)).toThrow(/format must be one of/);
    expect(() => round("fp16", "1" as unknown as number)).toThrow(/x must be a number, got string/);
    expect(() => round("fp16", 1n as unknown as number)).toThrow(TypeError);
  });

  for (const fmt of FORMAT_NAMES) {
    const f = FORMATS[fmt];
    const inRange = fc.double({ min: -f.maxFinite, max: f.maxFinite, noNaN: true });
    const anyDouble = fc.oneof(inRange, fc.double({ min: -4 * f.minNormal, max: 4 * f.minNormal, noNaN: true }));

    it(`round('${fmt}', x) is idempotent and representable`, () => {
      fc.assert(fc.property(fc.double(), (x) => {
        const r = round(fmt, x);
        expect(Object.is(round(fmt, r), r) || Number.isNaN(r)).toBe(true);
        expect(isRepresentable(fmt, r)).toBe(true);
      }), { seed: SEED, numRuns: 2000 });
    });

    it(`round('${fmt}', x, {saturate}) is monotone`, () => {
      fc.assert(fc.property(fc.double({ noNaN: true }), fc.double({ noNaN: true }), (x, y) => {
        const [lo, hi] = x <= y ? [x, y] : [y, x];
        expect(round(fmt, lo, { saturate: true })).toBeLessThanOrEqual(round(fmt, hi, { saturate: true }));
      }), { seed: SEED, numRuns: 2000 });
    });

    it(`round('${fmt}', x) is a nearest representable value, ties to an even pattern`, () => {
      fc.assert(fc.property(anyDouble, (x) => {
        const r = round(fmt, x);
        if (!Number.isFinite(r)) return; // only when |x| rounds past maxFinite
        const err = Math.abs(x - r);
        expect(err).toBeLessThanOrEqual(ulp(fmt, x === 0 ? 0 : x) / 2); // never more than half an ulp
        const atEdge = Math.abs(r) === f.maxFinite && !f.hasInfinity; // E4M3FN: no value beyond ±448
        const neighbours = [r === -f.maxFinite && atEdge ? r : nextDown(fmt, r), r === f.maxFinite && atEdge ? r : nextUp(fmt, r)];
        for (const neighbour of neighbours) {
          if (!Number.isFinite(neighbour)) continue;
          const other = Math.abs(x - neighbour);
          expect(err).toBeLessThanOrEqual(other);
          if (err === other && neighbour !== r) expect(encode(fmt, r) % 2).toBe(0); // tie: the even pattern
        }
      }), { seed: SEED, numRuns: 3000 });
    });
  }
});
