import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { toyLoss, toyTrajectory } from "./toy.js";

describe("toy loss", () => {
  it("worked example and derivatives against central differences", () => {
    expect(toyLoss({ a: 10, b: 1 }, 1, 0)).toEqual({ loss: 5, grad: [10, 0], hess: [10, -1] });
    fc.assert(fc.property(fc.double({ min: -2, max: 2, noNaN: true }), fc.double({ min: -2, max: 2, noNaN: true }), (x, y) => {
      const l = { a: 3, b: 1.5 }, d = 1e-5, f = (p: number, q: number) => toyLoss(l, p, q).loss, r = toyLoss(l, x, y);
      const gx = (f(x + d, y) - f(x - d, y)) / (2 * d), gy = (f(x, y + d) - f(x, y - d)) / (2 * d);
      const hy = (toyLoss(l, x, y + d).grad[1] - toyLoss(l, x, y - d).grad[1]) / (2 * d);
      return Math.abs(gx - r.grad[0]) < 1e-5 && Math.abs(gy - r.grad[1]) < 1e-4 && Math.abs(hy - r.hess[1]) < 1e-4;
    }));
  });
  it("Newton with lr 1 solves the x-parabola in one step; GD with lr > 2/a diverges along x", () => {
    expect(toyTrajectory({ a: 1, b: 0 }, "newton", [2, 0], { lr: 1, steps: 1 }).at(-1)).toEqual({ x: 0, y: 0, loss: 0 });
    const gd = toyTrajectory({ a: 30, b: 0 }, "gd", [1, 0], { lr: 0.1, steps: 20 });
    expect(Math.abs(gd.at(-1)!.x)).toBeGreaterThan(1);
  });
  it("near the saddle (h < 0): the paper's max{ρh, ε} steps downhill by lr; the code's ρh + ε goes uphill", () => {
    // at y0 = 0.1, b = 1: g_y = 0.001 − 0.1 < 0, h = 0.03 − 1 < 0 ⇒ downhill is +y
    const l = { a: 1, b: 1 }, o = { lr: 0.01, steps: 1, beta1: 0, beta2: 0 };
    expect(toyTrajectory(l, "sophia-paper", [0, 0.1], o)[1]!.y).toBeCloseTo(0.11, 12);
    expect(toyTrajectory(l, "sophia", [0, 0.1], o)[1]!.y).toBeLessThan(0.1);
  });
  it("Sophia's step is at most lr per coordinate when h >= 0 (property)", () => {
    fc.assert(fc.property(fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: 1.1, max: 3, noNaN: true }), (x, y) => {
      const p = toyTrajectory({ a: 5, b: 1 }, "sophia", [x, y], { lr: 0.05, steps: 1 });
      return Math.abs(p[1]!.x - x) <= 0.05 + 1e-12 && Math.abs(p[1]!.y - y) <= 0.05 + 1e-12;
    }));
  });
  it("bad input", () => {
    expect(() => toyLoss({ a: -1, b: 0 }, 0, 0)).toThrow(/a must be a finite number >= 0, got -1/);
    expect(() => toyTrajectory({ a: 1, b: 1 }, "gd", [0, 0], { lr: 0, steps: 1 })).toThrow(/lr must be a finite number > 0, got 0/);
    expect(() => toyTrajectory({ a: 1, b: 1 }, "x" as never, [0, 0], { lr: 1, steps: 1 })).toThrow(/method must be one of/);
  });
});
