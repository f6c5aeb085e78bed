import { describe, expect, it } from "vitest";
import { f16round } from "@petamoriken/float16";
import * as fc from "fast-check";
import { gradExponentHistogram } from "./gradExponents.js";

describe("gradExponentHistogram", () => {
  it("gradExponentHistogram classifies against fp16's limits", () => {
    const h = gradExponentHistogram([Float32Array.of(0, 2 ** -30, 2 ** -25, 2 ** -20, 1, 70000, -Infinity)]);
    expect([h.zeros, h.underflow, h.subnormal, h.overflow, h.total]).toEqual([1, 2, 1, 2, 7]);
    expect(h.bins.map((b) => [b.exponent, b.fp16])).toEqual([[-30, "zero"], [-25, "subnormal"], [-20, "subnormal"], [0, "normal"], [16, "overflow"], [1024, "overflow"]]);
  });

  it("gradExponentHistogram(g, S) shifts every exponent by log2 S", () => {
    const g = [Float32Array.of(2 ** -30, 2 ** -10)];
    expect(gradExponentHistogram(g, 2 ** 16).bins.map((b) => b.exponent)).toEqual([-14, 6]);
    expect(gradExponentHistogram(g, 2 ** 16).underflow).toBe(0);
    expect(() => gradExponentHistogram(g, 0)).toThrow(/lossScale must be a positive finite number, got 0/);
  });

  it("gradExponentHistogram's underflow and overflow counts agree with an fp16 cast (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.float({ noNaN: true }), { maxLength: 30 }), (vals) => {
        const h = gradExponentHistogram([Float32Array.from(vals)]);
        const nonzero = vals.filter((v) => v !== 0);
        expect(h.underflow).toBe(nonzero.filter((v) => f16round(v) === 0).length);
        expect(h.overflow).toBe(vals.filter((v) => !Number.isFinite(f16round(v))).length);
      }),
      { seed: 8, numRuns: 300 },
    );
  });
});
