import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { largestMargin } from "./largestMargin.js";
import { amaxAndScaleUpdate } from "./amaxAndScaleUpdate.js";
import { quantizeFp8 } from "./quantizeFp8.js";

/** Oracle: the largest m whose delayed scale casts the whole tensor without underflow or overflow (every margin tried). */
function bruteForce(v: Float32Array, f: "fp8-e4m3" | "fp8-e5m2"): number | null {
  const amax = Math.max(...[...v].map(Math.abs)), max = f === "fp8-e4m3" ? 448 : 57344;
  let best: number | null = null;
  for (let m = 0; m < 330; m++) {
    const { scale } = amaxAndScaleUpdate([amax], 1, max, { margin: m, amaxComputeAlgo: "max" });
    const q = quantizeFp8(v, scale, f);
    if (q.underflow === 0 && q.overflow === 0) best = m;
  }
  return best;
}

describe("largestMargin", () => {
  it("worked examples: 1 next to 448 survives 9 halvings in E4M3 (2^-9 is its smallest subnormal), 16 in E5M2 with its amax", () => {
    expect(largestMargin(Float32Array.of(448, 1), "fp8-e4m3")).toBe(9);
    expect(largestMargin(Float32Array.of(57344, 1), "fp8-e5m2")).toBe(16);
    expect(largestMargin(Float32Array.of(448, -1, 0, -0), "fp8-e4m3")).toBe(9); // sign and zeros do not matter
  });

  it("at the underflow edge: half the smallest subnormal is a tie to 0, just above it rounds up to the subnormal", () => {
    expect(largestMargin(Float32Array.of(448, 2 ** -10), "fp8-e4m3")).toBeNull();
    expect(largestMargin(Float32Array.of(448, Math.fround(2 ** -10 * (1 + 2 ** -20))), "fp8-e4m3")).toBe(0);
    expect(largestMargin(Float32Array.of(448, 0.75 * 2 ** -9), "fp8-e4m3")).toBe(0);
  });

  it("a scale that overflows float32 (a tiny amax) is FLT_MAX for several margins, which all keep the value", () => {
    expect(largestMargin(Float32Array.of(1e-40), "fp8-e4m3")).toBe(bruteForce(Float32Array.of(1e-40), "fp8-e4m3"));
  });

  it("names bad input", () => {
    expect(() => largestMargin(Float32Array.of(1, Infinity), "fp8-e4m3")).toThrow(/values must be finite, got Infinity at 1/);
    expect(() => largestMargin(Float32Array.of(0, -0), "fp8-e4m3")).toThrow(/values must hold a nonzero value/);
    expect(() => largestMargin(new Float32Array(0), "fp8-e5m2")).toThrow(/values must hold a nonzero value/);
  });

  it("handles a million values", () => {
    const v = new Float32Array(1_000_000).fill(3);
    v[123456] = 3 * 2 ** -5;
    expect(largestMargin(v, "fp8-e4m3")).toBe(largestMargin(Float32Array.of(3, 3 * 2 ** -5), "fp8-e4m3"));
  });

  it("property: equals trying every margin on the whole tensor with quantizeFp8 (oracle)", () => {
    fc.assert(fc.property(fc.array(fc.float({ min: Math.fround(-1e8), max: Math.fround(1e8), noNaN: true }), { minLength: 1, maxLength: 8 }), fc.constantFrom("fp8-e4m3" as const, "fp8-e5m2" as const), (xs, f) => {
      const v = Float32Array.from(xs);
      if (!v.some((x) => x !== 0)) return;
      expect(largestMargin(v, f)).toBe(bruteForce(v, f));
    }), { seed: 14, numRuns: 150 });
  });
});
