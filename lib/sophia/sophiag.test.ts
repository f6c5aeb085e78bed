import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { SophiaG, sophiagStep, hessianEma, isHessianStep, validateSophiaG, SOPHIAG_DEFAULTS } from "./sophiag.js";
import type { Param } from "../nn/index.js";

// Hand trace (worked on paper, not produced by the code): lr 0.1, β1 = β2 = 0.5, ρ = 1, λ = 0.1, bs = 2,
// k = 2 (train_sophiag.py refreshes h after 0-based step 1), θ0 = [1, −2], m0 = h0 = 0.
// step 1: g = [0.4, −1]   decay 0.99 → [0.99, −1.98]; m = [0.2, −0.5]; h = 0 ⇒ ratio 1 (clipped) → θ = [0.89, −1.88]
// step 2: g = [0.2, 0.6]  → [0.8811, −1.8612]; m = [0.2, 0.05]; clipped → θ = [0.7811, −1.9612]
// Hessian: ĝ = [1, 0.5] → h = 0.5·0 + 0.5·[1, 0.25] = [0.5, 0.125]
// step 3: g = [−0.6, 0.15] → [0.773289, −1.941588]; m = [−0.2, 0.1]; ρ·bs·h = [1, 0.25];
//         ratio = [0.2, 0.4] (not clipped) → θ = [0.773289 + 0.02, −1.941588 − 0.04] = [0.793289, −1.981588]
const cfg = { lr: 0.1, betas: [0.5, 0.5] as [number, number], rho: 1, weightDecay: 0.1, bs: 2 };
const grads = [[0.4, -1], [0.2, 0.6], [-0.6, 0.15]];
const expected = [[0.89, -1.88], [0.7811, -1.9612], [0.793289, -1.981588]];

describe("SophiaG: a hand-computed 3-step trace", () => {
  it("pure step + hessianEma follow the trace", () => {
    let theta: ArrayLike<number> = [1, -2], m: ArrayLike<number> = [0, 0], h: ArrayLike<number> = [0, 0];
    const clips: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = sophiagStep(theta, grads[i]!, m, h, cfg);
      theta = r.theta; m = r.m; clips.push(r.clipped);
      expect(Array.from(theta)[0]).toBeCloseTo(expected[i]![0]!, 12);
      expect(Array.from(theta)[1]).toBeCloseTo(expected[i]![1]!, 12);
      if (isHessianStep(i, 2)) h = hessianEma(h, [1, 0.5], 0.5);
    }
    expect(Array.from(h)).toEqual([0.5, 0.125]);
    expect(clips).toEqual([2, 2, 0]);
  });
  it("the in-place optimizer on lib/nn Params follows the same trace (float32 storage)", () => {
    const p: Param = { name: "w", shape: [2], data: Float32Array.of(1, -2), grad: new Float32Array(2) };
    const opt = new SophiaG([p], cfg);
    for (let i = 0; i < 3; i++) {
      p.grad.set(grads[i]!);
      opt.step(2);
      expect(p.data[0]).toBeCloseTo(expected[i]![0]!, 6);
      expect(p.data[1]).toBeCloseTo(expected[i]![1]!, 6);
      if (isHessianStep(i, 2)) { p.grad.set([1, 0.5]); opt.updateHessian(); }
    }
    expect(opt.lastClipped).toBe(0);
  });
});

describe("SophiaG: details of the code", () => {
  it("defaults are the code's", () => {
    expect(validateSophiaG()).toEqual({ lr: 1e-4, betas: [0.965, 0.99], rho: 0.04, weightDecay: 0.1 });
    expect(SOPHIAG_DEFAULTS.bs).toBe(5120);
  });
  it("the worked example of the TSDoc", () => {
    const r = sophiagStep([1], [0.5], [0], [0.5], { lr: 0.1, betas: [0.5, 0.9], rho: 1, weightDecay: 0, bs: 1 });
    expect(r.theta[0]).toBeCloseTo(0.95, 14); expect(r.m[0]).toBe(0.25); expect(r.clipped).toBe(0);
  });
  it("h = 0 gives a sign step of size lr (the first k steps)", () => {
    const r = sophiagStep([0, 0, 0], [1e-9, -3, 0], [0, 0, 0], [0, 0, 0], { lr: 0.01, weightDecay: 0 });
    expect(Array.from(r.theta)).toEqual([-0.01, 0.01, 0]);
  });
  it("h < 0 (possible for Hutchinson): the code's step goes uphill, unbounded by lr", () => {
    // m = 0.5, denominator ρ·bs·h = 1·1·(−0.1) → ratio −5 (clamp has no lower bound) → θ = 0 − 0.1·1·(−5) = +0.5
    const r = sophiagStep([0], [1], [0], [-0.1], { lr: 0.1, betas: [0.5, 0.5], rho: 1, weightDecay: 0, bs: 1 });
    expect(r.theta[0]).toBeCloseTo(0.5, 12);
  });
  it("denominator \"paper\" (Algorithm 3's max{ρ·bs·h, ε}): negative h gives a clipped descent step of size lr; equal to the code for h ≥ 0", () => {
    // Same input as above: m = 0.5, ρ·bs·h = −0.1 → max(−0.1, 1e-15) = 1e-15 → ratio min(5e14, 1) = 1 → θ = 0 − 0.1·1·1 = −0.1 (downhill for g > 0)
    const mk = (): Param => ({ name: "w", shape: [1], data: Float32Array.of(0), grad: Float32Array.of(1) });
    const run = (denominator: "code" | "paper", h: number) => {
      const p = mk(), opt = new SophiaG([p], { lr: 0.1, betas: [0.5, 0.5], rho: 1, weightDecay: 0, denominator });
      opt.hessian[0]![0] = h; opt.step(1); return p.data[0]!;
    };
    expect(run("paper", -0.1)).toBeCloseTo(-0.1, 7);
    expect(run("code", -0.1)).toBeCloseTo(0.5, 6);
    for (const h of [0, 0.3, 2]) expect(run("paper", h)).toBe(run("code", h));
    expect(() => new SophiaG([mk()], { denominator: "max" as never })).toThrow(/denominator must be "code" or "paper", got "max"/);
  });
  it("property: with h >= 0 every coordinate moves at most lr beyond its weight decay", () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.double({ min: -5, max: 5, noNaN: true }), fc.double({ min: -5, max: 5, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: 0, max: 10, noNaN: true })), { minLength: 1, maxLength: 8 }),
      fc.double({ min: 1e-5, max: 1, noNaN: true }),
      (rows, lr) => {
        const th = rows.map((r) => r[0]), g = rows.map((r) => r[1]), m = rows.map((r) => r[2]), h = rows.map((r) => r[3]);
        const r = sophiagStep(th, g, m, h, { lr, weightDecay: 0.1, bs: 4 });
        return th.every((t, i) => Math.abs(r.theta[i]! - t * (1 - lr * 0.1)) <= lr + 1e-13);
      }));
  });
  it("inputs are not modified", () => {
    const th = [1], g = [2], m = [0.1], h = [0.2];
    sophiagStep(th, g, m, h); hessianEma(h, g, 0.9);
    expect([th, g, m, h]).toEqual([[1], [2], [0.1], [0.2]]);
  });
  it("isHessianStep with k not dividing the step count", () => {
    expect([0, 1, 2, 3, 4, 5, 6].filter((i) => isHessianStep(i, 3))).toEqual([2, 5]);
    expect([0, 1, 2].filter((i) => isHessianStep(i, 1))).toEqual([0, 1, 2]);
    expect(Array.from({ length: 9 }, (_, i) => i).filter((i) => isHessianStep(i, 10))).toEqual([]);
  });
});

describe("SophiaG: bad input names the field", () => {
  it.each([
    [{ rho: 0 }, /rho must be a finite number > 0, got 0/],
    [{ rho: -1 }, /rho must be a finite number > 0, got -1/],
    [{ betas: [1, 0.99] as [number, number] }, /betas\[0\] must be in \[0, 1\), got 1/],
    [{ betas: [0.9, -0.1] as [number, number] }, /betas\[1\] must be in \[0, 1\), got -0.1/],
    [{ lr: -1 }, /lr must be a finite number >= 0, got -1/],
    [{ weightDecay: NaN }, /weightDecay must be a finite number >= 0, got NaN/],
  ])("%o", (o, re) => {
    expect(() => validateSophiaG(o)).toThrow(RangeError);
    expect(() => validateSophiaG(o)).toThrow(re);
  });
  it("k < 1, bs <= 0, non-finite gradient, length", () => {
    expect(() => isHessianStep(0, 0)).toThrow(/k must be an integer >= 1, got 0/);
    expect(() => sophiagStep([1], [1], [0], [0], { bs: 0 })).toThrow(/bs must be a finite number > 0, got 0/);
    expect(() => sophiagStep([1, 2, 3], [1, 2, NaN], [0, 0, 0], [0, 0, 0])).toThrow(/grad of theta\[2\] must be finite, got NaN/);
    expect(() => sophiagStep([1, 2], [1], [0, 0], [0, 0])).toThrow(/grad must have 2 elements, got 1/);
    expect(() => hessianEma([0], [Infinity], 0.9)).toThrow(/gHat\[0\] must be finite, got Infinity/);
    const p: Param = { name: "head.W", shape: [2], data: Float32Array.of(1, 2), grad: Float32Array.of(0, Infinity) };
    const opt = new SophiaG([p]);
    expect(() => opt.step()).toThrow(/grad of head\.W\[1\] must be finite, got Infinity/);
    expect(Array.from(p.data)).toEqual([1, 2]);
  });
});

import { hessianSchedule } from "./sophiag.js";
describe("hessianSchedule", () => {
  it("examples and agreement with isHessianStep (property)", () => {
    expect(hessianSchedule(10, 4)).toEqual([3, 7]);
    expect(hessianSchedule(3, 5)).toEqual([]);
    fc.assert(fc.property(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 12 }), (n, k) => {
      const s = hessianSchedule(n, k);
      return s.length === Math.floor(n / k) && JSON.stringify(s) === JSON.stringify(Array.from({ length: n }, (_, i) => i).filter((i) => isHessianStep(i, k)));
    }));
    expect(() => hessianSchedule(1.5, 2)).toThrow(/steps must be an integer >= 0, got 1.5/);
  });
});
