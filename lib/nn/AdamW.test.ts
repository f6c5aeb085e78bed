import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { AdamW } from "./AdamW.js";
import type { Param } from "./types.js";

function param(values: number[]): Param {
  return { name: "p", shape: [values.length], data: Float32Array.from(values), grad: new Float32Array(values.length) };
}

/** PyTorch's AdamW update written out in float64 from the documented algorithm. */
function adamwReference(theta: number, grads: number[], lr = 1e-3, b1 = 0.9, b2 = 0.999, eps = 1e-8, wd = 1e-2): number[] {
  let m = 0, v = 0; const out: number[] = [];
  grads.forEach((g, k) => {
    const t = k + 1;
    theta *= 1 - lr * wd;
    m = b1 * m + (1 - b1) * g;
    v = b2 * v + (1 - b2) * g * g;
    const mhat = m / (1 - b1 ** t), vhat = v / (1 - b2 ** t);
    theta -= lr * mhat / (Math.sqrt(vhat) + eps);
    out.push(theta);
  });
  return out;
}

describe("AdamW", () => {
  it("new AdamW(params) has PyTorch's defaults lr 1e-3, betas (0.9, 0.999), eps 1e-8, weight_decay 1e-2", () => {
    const o = new AdamW([param([1])]);
    expect([o.lr, o.betas, o.eps, o.weightDecay]).toEqual([1e-3, [0.9, 0.999], 1e-8, 1e-2]);
  });
  it("AdamW.step() follows the hand-computed update step by step (θ0 = 1, g = 0.5, −0.25, 2)", () => {
    const p = param([1]), o = new AdamW([p]);
    const grads = [0.5, -0.25, 2], ref = adamwReference(1, grads);
    grads.forEach((g, k) => { p.grad[0] = g; o.step(); expect(p.data[0]).toBeCloseTo(ref[k], 6); });
    // first step: the bias-corrected update has magnitude lr (m̂/√v̂ = sign g), plus decay
    expect(ref[0]).toBeCloseTo(1 * (1 - 1e-5) - 1e-3, 9);
  });
  it("AdamW weight decay is decoupled: with zero gradient θ only shrinks by (1 − lr·λ) per step", () => {
    const p = param([2, -4]), o = new AdamW([p], { lr: 0.1, weightDecay: 0.5 });
    o.step(); o.step();
    expect(p.data[0]).toBeCloseTo(2 * 0.95 ** 2, 6);
    expect(p.data[1]).toBeCloseTo(-4 * 0.95 ** 2, 6);
  });
  it("AdamW.step() matches the float64 reference on random gradient sequences and hyperparameters", () => {
    fc.assert(fc.property(
      fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 1, maxLength: 8 }),
      fc.double({ min: 1e-4, max: 0.1, noNaN: true }), fc.double({ min: 0, max: 0.2, noNaN: true }),
      (grads, lr, wd) => {
        const p = param([0.7]), o = new AdamW([p], { lr, weightDecay: wd });
        const ref = adamwReference(0.7, grads.map(Math.fround), lr, 0.9, 0.999, 1e-8, wd);
        return grads.every((g, k) => { p.grad[0] = g; o.step(); return Math.abs(p.data[0] - ref[k]) <= 1e-5 * (1 + Math.abs(ref[k])); });
      }), { seed: 17, numRuns: 200 });
  });
  it("AdamW rejects bad hyperparameters with the field name", () => {
    expect(() => new AdamW([], { lr: -1 })).toThrow(/lr must be a finite number >= 0, got -1/);
    expect(() => new AdamW([], { betas: [1, 0.999] })).toThrow(/betas\[0\] must be in \[0, 1\), got 1/);
    expect(() => new AdamW([], { weightDecay: NaN })).toThrow(/weightDecay must be a finite number >= 0, got NaN/);
  });
});
