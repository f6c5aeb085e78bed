import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { sophiagKernelError } from "./sophiagKernelError.js";
import { sophiagStep } from "./sophiag.js";

const cfg = { lr: 0.1, betas: [0.5, 0.9] as [number, number], rho: 1, weightDecay: 0, bs: 1 };

describe("sophiagKernelError", () => {
  it("the TSDoc example: θ' = 0.95 stored in float32, relative to the scale 1.05", () => {
    const e = sophiagKernelError([1], [0.5], [0], [0.5], cfg, { theta: Float32Array.of(0.95), m: Float32Array.of(0.25) });
    // scale = |θ| + lr·(|β1·m| + |(1 − β1)·g|)/|ρ·bs·h + ε| = 1 + 0.1·0.25/0.5 = 1.05 (hand)
    expect(e.maxAbsTheta).toBeCloseTo(Math.abs(Math.fround(0.95) - 0.95), 15); // 1.19e-8 (the reference is 0.95 up to 1e-16)
    expect(e.worstTheta / e.maxAbsTheta).toBeCloseTo(1 / 1.05, 12);
    expect(e.worstM).toBe(0);
    expect(e.clipped).toBe(0);
  });
  it("the reference itself gives zero; a clipped coordinate is scaled by |θ| + lr", () => {
    const ref = sophiagStep([2, -1], [1, 1], [0, 0], [0, 0], cfg);
    expect(sophiagKernelError([2, -1], [1, 1], [0, 0], [0, 0], cfg, ref)).toEqual({ maxAbsTheta: 0, maxAbsM: 0, worstTheta: 0, worstM: 0, clipped: 2 });
    const off = { theta: [ref.theta[0]! + 0.03, ref.theta[1]!], m: Array.from(ref.m) };
    expect(sophiagKernelError([2, -1], [1, 1], [0, 0], [0, 0], cfg, off).worstTheta).toBeCloseTo(0.03 / 2.1, 12);
  });
  it("property: the reference rounded to float32 is within 2^-23 of its scale (one rounding)", () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: -3000, max: 3000 }), fc.integer({ min: -2000, max: 2000 }), fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -100, max: 2000 })), { minLength: 1, maxLength: 10 }), (rows) => {
      const [t, g, m, h] = [0, 1, 2, 3].map((j) => rows.map((r) => r[j]! / 1000));
      const ref = sophiagStep(t!, g!, m!, h!, cfg);
      const e = sophiagKernelError(t!, g!, m!, h!, cfg, { theta: Float32Array.from(ref.theta), m: Float32Array.from(ref.m) });
      return e.worstTheta <= 2 ** -23 && e.worstM <= 2 ** -23;
    }));
  });
  it("bad input: the messages of sophiagStep, and the output's length", () => {
    expect(() => sophiagKernelError([1], [NaN], [0], [0], cfg, { theta: [1], m: [0] })).toThrow(/grad of theta\[0\] must be finite, got NaN/);
    expect(() => sophiagKernelError([1], [1], [0], [0], { ...cfg, rho: 0 }, { theta: [1], m: [0] })).toThrow(/rho must be a finite number > 0, got 0/);
    expect(() => sophiagKernelError([1], [1], [0], [0], cfg, { theta: [1], m: [] })).toThrow(/out.m must have 1 elements, got 0/);
  });
});
