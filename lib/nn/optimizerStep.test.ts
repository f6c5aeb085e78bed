import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { initOptimizerState, optimizerStep, type OptimizerConfig } from "./optimizerStep.js";
import { AdamW } from "./AdamW.js";
import { SGD } from "./SGD.js";
import type { Param } from "./types.js";

const param = (v: Float32Array): Param => ({ name: "p", shape: [v.length], data: v.slice(), grad: new Float32Array(v.length) });

describe("optimizerStep", () => {
  it("optimizerStep(sgd) is θ − lr·g rounded to fp32 and leaves its inputs unchanged", () => {
    const w = Float32Array.of(1), g = Float32Array.of(0.5), s = initOptimizerState([w]);
    const r = optimizerStep([w], [g], s, { kind: "sgd", lr: 0.1 });
    expect(r.params[0][0]).toBe(Math.fround(1 - Math.fround(0.1 * 0.5)));
    expect([w[0], g[0], r.state.t, s.t]).toEqual([1, 0.5, 1, 0]);
  });

  it("optimizerStep(adamw) first step moves each weight by lr·sign(g) after decoupled decay (PyTorch's formula)", () => {
    const w = [Float32Array.of(1, 2)];
    const r = optimizerStep(w, [Float32Array.of(0.5, -3)], initOptimizerState(w), { kind: "adamw", lr: 0.1 });
    // t = 1: m̂ = g, v̂ = g², step = lr·g/(|g| + eps) ≈ lr·sign(g); decay 1 − 0.1·0.01 = 0.999
    expect(r.params[0][0]).toBeCloseTo(0.999 - 0.1, 6);
    expect(r.params[0][1]).toBeCloseTo(2 * 0.999 + 0.1, 6);
    expect(r.state.t).toBe(1);
  });

  it("optimizerStep equals the AdamW and SGD classes' step() bit for bit over several steps (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.float({ min: -2, max: 2, noNaN: true }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.float({ min: -2, max: 2, noNaN: true }), { minLength: 5, maxLength: 5 }),
        fc.constantFrom<OptimizerConfig>({ kind: "adamw", lr: 1e-2 }, { kind: "adamw", lr: 0.1, betas: [0.8, 0.99], weightDecay: 0 }, { kind: "sgd", lr: 0.1 }, { kind: "sgd", lr: 0.05, momentum: 0.9 }),
        (w0, gs, config) => {
          const w = Float32Array.from(w0);
          const p = param(w);
          const { kind, ...o } = config;
          const cls = kind === "adamw" ? new AdamW([p], o) : new SGD([p], o);
          let params: Float32Array[] = [w], state = initOptimizerState([w]);
          for (const gi of gs) {
            const g = Float32Array.from(w0, (_, i) => gi * (i + 1));
            p.grad.set(g); cls.step();
            ({ params, state } = optimizerStep(params, [g], state, config));
            expect([...params[0]]).toEqual([...p.data]);
          }
        },
      ),
      { seed: 11, numRuns: 60 },
    );
  });

  it("optimizerStep rejects lr <= 0 and mismatched gradients, naming the field", () => {
    const w = [Float32Array.of(1)], s = initOptimizerState(w);
    expect(() => optimizerStep(w, [Float32Array.of(1)], s, { kind: "sgd", lr: 0 })).toThrow(/lr must be a positive finite number, got 0/);
    expect(() => optimizerStep(w, [], s, { kind: "adamw", lr: 1 })).toThrow(/grads must have one tensor per parameter \(1\), got 0/);
    expect(() => optimizerStep(w, [Float32Array.of(1, 2)], s, { kind: "adamw", lr: 1 })).toThrow(/grads\[0\] must have 1 elements, got 2/);
    expect(() => optimizerStep(w, [Float32Array.of(1)], s, { kind: "adamw", lr: 1, betas: [1, 0.9] })).toThrow(/betas\[0\] must be in \[0, 1\), got 1/);
  });
});
