import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { bf16round, castArray, fastRounder as caster } from "./fastRound.js";
import { round } from "./round.js";

/** Independent oracle: the nearer of the two bf16 neighbours of a float32, ties to the even one. */
function bf16Oracle(x: number): number {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer);
  if (!Number.isFinite(f[0]!)) return f[0]!;
  const lo = new Uint32Array([u[0]! & 0xffff0000]);
  const hi = new Uint32Array([lo[0]! + 0x10000]);
  const vlo = new Float32Array(lo.buffer)[0]!;
  const vhi = new Float32Array(hi.buffer)[0]!;
  const dlo = Math.abs(f[0]! - vlo);
  // the neighbour above the largest finite bf16 is 2^128 (it rounds to Infinity)
  const dhi = Math.abs((Number.isFinite(vhi) ? vhi : Math.sign(vhi) * 2 ** 128) - f[0]!);
  if (dlo < dhi) return vlo;
  if (dhi < dlo) return vhi;
  return (lo[0]! >>> 16) % 2 === 0 ? vlo : vhi;
}

describe("fast-round", () => {
  it("bf16round rounds to nearest, ties to even", () => {
    expect(bf16round(1.01171875)).toBe(1.015625);
    expect(bf16round(1 + 2 ** -8)).toBe(1);
    expect(bf16round(1 + 3 * 2 ** -8)).toBe(1 + 2 ** -6);
    expect(Number.isNaN(bf16round(NaN))).toBe(true);
    expect(bf16round(3.4e38)).toBe(Infinity);
    expect(Object.is(bf16round(-0), -0)).toBe(true);
  });

  it("bf16round equals the two-neighbour oracle on random float32 values (property)", () => {
    fc.assert(fc.property(fc.float({ noNaN: true }), (x) => { expect(bf16round(x)).toBe(bf16Oracle(x)); }), { seed: 3, numRuns: 2000 });
  });

  it("caster(p) equals lib/precision's round(p, x) on random float32 values, fp16 and bf16 (property)", () => {
    fc.assert(fc.property(fc.float({ noNaN: true }), (x) => {
      expect(caster("fp16")(x)).toBe(round("fp16", x));
      expect(caster("bf16")(x)).toBe(round("bf16", x));
      expect(caster("fp32")(x)).toBe(round("fp32", x));
    }), { seed: 21, numRuns: 3000 });
  });

  it("castArray('fp16', …) flushes below half the smallest subnormal 2^-24 and overflows above 65504", () => {
    const r = castArray("fp16", Float32Array.of(2 ** -24, 2 ** -25, 2 ** -25 * 1.5, 65504, 65520, 1e-8));
    expect([...r]).toEqual([2 ** -24, 0, 2 ** -24, 65504, Infinity, 0]);
  });

  it("caster rejects an unknown precision", () => {
    expect(() => caster("fp8" as never)).toThrow(/format must be one of fp32, fp16, bf16, got "fp8"/);
  });
});
