import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { stallPoint, STALL_FORMATS } from "./stallPoint.js";
import { round } from "./round.js";
import { decode } from "./decode.js";
import { FORMATS } from "./formats.js";
import { accumulateReference } from "./accumulateReference.js";

/** The definition, by plain simulation with the general rounding. */
function simulate(format: string, a: number): { total: number; additions: number } {
  let t = 0, n = 0;
  for (;;) {
    const next = round(format, t + a);
    if (Object.is(next, t)) return { total: t, additions: n };
    n++;
    if (!Number.isFinite(next)) return { total: next, additions: n };
    t = next;
  }
}

describe("stallPoint(format, addend)", () => {
  it("worked example: ones in fp16 stop at 2048 after 2048 additions, as the page's accumulator does", () => {
    expect(stallPoint("fp16", 1)).toEqual({ total: 2048, additions: 2048 });
    expect(Array.from(accumulateReference(new Float32Array(4096).fill(1), [2047, 2048, 4096], "fp16"))).toEqual([2047, 2048, 2048]);
  });
  it("ones stop at 2^(m+1): bf16 256, fp8-e5m2 8, fp8-e4m3 16, fp32 2^24", () => {
    expect(stallPoint("bf16", 1).total).toBe(256);
    expect(stallPoint("fp8-e5m2", 1).total).toBe(8);
    expect(stallPoint("fp8-e4m3", 1).total).toBe(16);
    expect(stallPoint("fp32", 1)).toEqual({ total: 2 ** 24, additions: 2 ** 24 });
  });
  it("edge cases: overflow first (Infinity, or NaN in fp8-e4m3), subnormal addends, bad input", () => {
    expect(stallPoint("fp8-e4m3", 64)).toEqual({ total: NaN, additions: 8 });
    expect(stallPoint("fp16", 32768)).toEqual({ total: Infinity, additions: 2 });
    expect(stallPoint("fp16", FORMATS.fp16.minSubnormal)).toEqual(simulate("fp16", FORMATS.fp16.minSubnormal));
    expect(() => stallPoint("tf32" as never, 1)).toThrow(/^format must be one of fp32, bf16, fp16, fp8-e5m2, fp8-e4m3, got "tf32"$/);
    expect(() => stallPoint("fp16", 0.1)).toThrow(/^addend must be a positive finite value of fp16, got 0\.1$/);
    expect(() => stallPoint("fp16", -1)).toThrow(/addend/);
  });
  it("property: equals the plain simulation for random addends of every narrow format", () => {
    const arb = fc.tuple(fc.constantFrom(...STALL_FORMATS.filter((f) => f !== "fp32")), fc.nat()).map(([f, b]) => ({ f, a: Math.abs(decode(f, b % 2 ** FORMATS[f].bits)) }))
      .filter(({ a }) => a > 0 && Number.isFinite(a));
    fc.assert(fc.property(arb, ({ f, a }) => { expect(stallPoint(f, a)).toEqual(simulate(f, a)); }), { numRuns: 300, seed: 3 });
  });
});
