import { describe, expect, it } from "vitest";
import { initOptimizerState, optimizerStep } from "./optimizerStep.js";

describe("optimizerStep", () => {
  it("optimizerStep(adamw) first step moves each weight by lr·sign(g) after decoupled decay (PyTorch's formula)", () => {
    // t=1: m̂ = g, v̂ = g², update = lr·g/(|g|+eps); decay first: w·(1 − lr·λ)
    const w = [Float32Array.of(1, -2)];
    const r = optimizerStep(w, [Float32Array.of(0.5, -3)], initOptimizerState(w), { kind: "adamw", lr: 0.1 });
    expect(r.params[0]![0]).toBeCloseTo(1 * (1 - 0.1 * 0.01) - 0.1 * (0.5 / (0.5 + 1e-8)), 6);
    expect(r.params[0]![1]).toBeCloseTo(-2 * (1 - 0.1 * 0.01) + 0.1 * (3 / (3 + 1e-8)), 6);
    expect(r.state.t).toBe(1);
    expect(w[0]![0]).toBe(1); // input untouched
  });

  it("optimizerStep(sgd) is w − lr·g and rejects a bad lr", () => {
    const w = [Float32Array.of(1)];
    expect(optimizerStep(w, [Float32Array.of(0.5)], initOptimizerState(w), { kind: "sgd", lr: 0.1 }).params[0]![0]).toBe(Math.fround(0.95));
    expect(() => optimizerStep(w, [Float32Array.of(0.5)], initOptimizerState(w), { kind: "sgd", lr: 0 })).toThrow(/lr must be a positive finite number, got 0/);
  });
});
