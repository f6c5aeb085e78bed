import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { hasInfOrNaN, invScale, unscaleGrads } from "./unscaleGrads.js";

describe("unscaleGrads", () => {
  it("unscaleGrads(grads, 2^16) divides exactly by a power of two", () => {
    const { grads, foundInf } = unscaleGrads([Float32Array.of(65536, -32768, 3)], 65536);
    expect(foundInf).toBe(false);
    expect([...grads[0]!]).toEqual([1, -0.5, 3 / 65536]);
  });

  it("unscaleGrads multiplies by fp32(1/scale), not by 1/scale in float64", () => {
    const scale = 3;
    const inv = Math.fround(1 / 3);
    expect(invScale(3)).toBe(inv);
    const g = Float32Array.of(3);
    expect(unscaleGrads([g], scale).grads[0]![0]).toBe(Math.fround(3 * inv));
  });

  it("unscaleGrads flags inf and NaN in any tensor and leaves the inputs unchanged", () => {
    const a = Float32Array.of(1, 2);
    const b = Float32Array.of(NaN);
    const r = unscaleGrads([a, b], 4);
    expect(r.foundInf).toBe(true);
    expect([...a]).toEqual([1, 2]);
    expect(hasInfOrNaN([Float32Array.of(-Infinity)])).toBe(true);
    expect(unscaleGrads([], 4)).toEqual({ grads: [], foundInf: false });
  });

  it("unscaleGrads rejects a scale that is not positive and finite", () => {
    expect(() => unscaleGrads([Float32Array.of(1)], 0)).toThrow(/scale must be a positive finite number, got 0/);
    expect(() => unscaleGrads([Float32Array.of(1)], Infinity)).toThrow(/scale/);
  });

  it("unscaleGrads with a power-of-two scale is exact for float32 gradients (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.float({ noNaN: true, noDefaultInfinity: true, min: Math.fround(-1e30), max: Math.fround(1e30) }), { maxLength: 20 }), fc.integer({ min: 0, max: 24 }), (vals, k) => {
        const g = Float32Array.from(vals.map((v) => v * 2 ** k));
        const r = unscaleGrads([g], 2 ** k);
        for (let i = 0; i < g.length; i++) expect(r.grads[0]![i]).toBe(Math.fround(vals[i]!));
      }),
      { seed: 7, numRuns: 100 },
    );
  });
});
