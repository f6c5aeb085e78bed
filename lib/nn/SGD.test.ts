import { describe, expect, it } from "vitest";
import { SGD } from "./SGD.js";
import type { Param } from "./types.js";

function param(values: number[]): Param {
  return { name: "p", shape: [values.length], data: Float32Array.from(values), grad: new Float32Array(values.length) };
}

describe("SGD", () => {
  it("new SGD(params) has PyTorch's defaults (lr 1e-3, no momentum, no decay) and does θ ← θ − lr·g", () => {
    const p = param([1]), o = new SGD([p]);
    expect([o.lr, o.momentum, o.dampening, o.weightDecay, o.nesterov]).toEqual([1e-3, 0, 0, 0, false]);
    p.grad[0] = 2; o.step();
    expect(p.data[0]).toBeCloseTo(1 - 2e-3, 7);
  });
  it("SGD with momentum 0.9 follows b1 = g1, b_t = 0.9·b_{t−1} + g_t (hand computed)", () => {
    const p = param([0]), o = new SGD([p], { lr: 0.1, momentum: 0.9 });
    // g = 1, 1, 1: b = 1, 1.9, 2.71; θ = −0.1, −0.29, −0.561
    const expected = [-0.1, -0.29, -0.561];
    for (const e of expected) { p.grad[0] = 1; o.step(); expect(p.data[0]).toBeCloseTo(e, 6); }
  });
  it("SGD with nesterov uses g + μ·b; with dampening τ, b_t = μ·b + (1 − τ)·g after the first step", () => {
    const p = param([0]), o = new SGD([p], { lr: 1, momentum: 0.5, nesterov: true });
    p.grad[0] = 1; o.step(); // b = 1, d = 1 + 0.5 = 1.5
    expect(p.data[0]).toBeCloseTo(-1.5, 6);
    p.grad[0] = 1; o.step(); // b = 0.5 + 1 = 1.5, d = 1 + 0.75
    expect(p.data[0]).toBeCloseTo(-3.25, 6);
    const q = param([0]), s = new SGD([q], { lr: 1, momentum: 0.5, dampening: 0.5 });
    q.grad[0] = 2; s.step(); // b = 2 (first step: no dampening)
    q.grad[0] = 2; s.step(); // b = 1 + 1 = 2
    expect(q.data[0]).toBeCloseTo(-4, 6);
  });
  it("SGD weight decay is L2 added to the gradient (coupled, unlike AdamW)", () => {
    const p = param([2]), o = new SGD([p], { lr: 0.1, weightDecay: 0.5 });
    o.step(); // g = 0 + 0.5·2 = 1
    expect(p.data[0]).toBeCloseTo(1.9, 6);
  });
  it("SGD rejects nesterov without momentum, and negative lr", () => {
    expect(() => new SGD([], { nesterov: true })).toThrow(/nesterov momentum requires a momentum > 0 and zero dampening/);
    expect(() => new SGD([], { lr: -0.1 })).toThrow(/lr must be a finite number >= 0, got -0.1/);
  });
});
