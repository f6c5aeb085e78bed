import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { Lion, lionStep } from "./lion.js";
import { AdamW, type Param } from "../nn/index.js";

// Lion, Chen et al. 2023 Algorithm 2, by hand: lr 0.1, β = (0.9, 0.99), λ = 0.1, θ0 = 1, m0 = 0.
// g = 0.5:  c = 0.05 > 0  → θ = 0.99 − 0.1 = 0.89;        m = 0.01·0.5 = 0.005
// g = −0.2: c = 0.0045 − 0.02 = −0.0155 → θ = 0.8811 + 0.1 = 0.9811; m = 0.00495 − 0.002 = 0.00295
// g = 0.01: c = 0.002655 + 0.001 = 0.003655 > 0 → θ = 0.971289 − 0.1 = 0.871289
describe("Lion against the paper's Algorithm 2 (hand trace)", () => {
  it("pure and in-place agree with the hand values", () => {
    const p: Param = { name: "w", shape: [1], data: Float32Array.of(1), grad: new Float32Array(1) };
    const opt = new Lion([p], { lr: 0.1, weightDecay: 0.1 });
    let th: ArrayLike<number> = [1], m: ArrayLike<number> = [0];
    const want = [0.89, 0.9811, 0.871289], ms = [0.005, 0.00295];
    [0.5, -0.2, 0.01].forEach((g, i) => {
      const r = lionStep(th, [g], m, { lr: 0.1, weightDecay: 0.1 });
      th = r.theta; m = r.m;
      expect(th[0]).toBeCloseTo(want[i]!, 12);
      if (i < 2) expect(m[0]).toBeCloseTo(ms[i]!, 12);
      p.grad[0] = g; opt.step();
      expect(p.data[0]).toBeCloseTo(want[i]!, 6);
    });
  });
  it("property: every coordinate moves by exactly lr beyond decay when c ≠ 0", () => {
    fc.assert(fc.property(fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: 0.01, max: 3, noNaN: true }), fc.double({ min: 1e-4, max: 0.5, noNaN: true }), (t, g, lr) => {
      const r = lionStep([t], [g], [0], { lr });
      return Math.abs(Math.abs(r.theta[0]! - t) - lr) < 1e-12;
    }));
  });
  it("bad input", () => {
    expect(() => lionStep([1], [1], [0], { betas: [1, 0.99] })).toThrow(/betas\[0\] must be in \[0, 1\), got 1/);
    expect(() => lionStep([1, 2], [1, NaN], [0, 0])).toThrow(/grad\[1\] must be finite, got NaN/);
    expect(() => new Lion([], { lr: -1 })).toThrow(/lr must be a finite number >= 0, got -1/);
  });
});

// AdamW, PyTorch's documented algorithm (torch.optim.AdamW page), by hand:
// lr 0.1, β = (0.9, 0.999), ε = 1e-8, λ = 0.1, θ0 = 1.
// t = 1, g = 0.5: θ ← 0.99; m = 0.05; v = 0.00025; m̂ = 0.5, v̂ = 0.25 → θ = 0.99 − 0.1·0.5/(0.5 + 1e-8) ≈ 0.89
// t = 2, g = −0.2: θ ← 0.8811; m = 0.045 − 0.02 = 0.025; v = 0.00024975 + 0.00004 = 0.00028975;
//   m̂ = 0.025/0.19; v̂ = 0.00028975/0.001999 → θ = 0.8811 − 0.1·m̂/(√v̂ + 1e-8)
describe("lib/nn AdamW against PyTorch's documented update (hand trace)", () => {
  it("two steps", () => {
    const p: Param = { name: "w", shape: [1], data: Float32Array.of(1), grad: new Float32Array(1) };
    const opt = new AdamW([p], { lr: 0.1, weightDecay: 0.1 });
    p.grad[0] = 0.5; opt.step();
    expect(p.data[0]).toBeCloseTo(0.99 - 0.1 * 0.5 / (0.5 + 1e-8), 6);
    p.grad[0] = -0.2; opt.step();
    const mh = 0.025 / 0.19, vh = 0.00028975 / 0.001999;
    expect(p.data[0]).toBeCloseTo(0.8811 - 0.1 * mh / (Math.sqrt(vh) + 1e-8), 6);
  });
});
