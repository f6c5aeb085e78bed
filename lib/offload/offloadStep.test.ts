import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { offloadStep, type OffloadState } from "./offloadStep.js";
import { trainOffloaded } from "./trainOffloaded.js";
import { chooseEvictions } from "./chooseEvictions.js";
import { AdamW, roundTo } from "../nn/index.js";

const fresh = (xs: number[][]): OffloadState => ({ t: 0, master: xs.map((x) => Float32Array.from(x)), m: xs.map((x) => new Float32Array(x.length)), v: xs.map((x) => new Float32Array(x.length)) });

describe("offloadStep(state, grads16, config)", () => {
  it("worked example: one step with lr 0.1 gives master 0.9 and fp16 parameters 0.89990234375", () => {
    const r = offloadStep(fresh([[1]]), [Float32Array.of(0.5)], { lr: 0.1, weightDecay: 0 });
    expect(r.state.master[0][0]).toBeCloseTo(0.9, 6);
    expect(r.params16[0][0]).toBe(0.89990234375);
    expect(r.state.t).toBe(1);
  });

  it("the master follows lib/nn's AdamW exactly over several steps; the fp16 copy is its rounding", () => {
    const x0 = [0.3, -1.7, 2.5];
    const p = { name: "w", shape: [3], data: Float32Array.from(x0), grad: new Float32Array(3) };
    const opt = new AdamW([p], { lr: 0.05 });
    let s = fresh([x0]);
    for (const g of [[0.1, -0.2, 0.3], [0.5, 0.5, -0.1], [-0.25, 0.125, 1]]) {
      p.grad.set(g); opt.step();
      const r = offloadStep(s, [Float32Array.from(g)], { lr: 0.05 });
      expect(Array.from(r.state.master[0])).toEqual(Array.from(p.data));
      expect(Array.from(r.params16[0])).toEqual(Array.from(p.data, (x) => roundTo("fp16", x)));
      s = r.state;
    }
  });

  it("with DPU the GPU receives the previous update's parameters; the master is the same as without DPU", () => {
    fc.assert(fc.property(fc.array(fc.float({ min: -4, max: 4, noNaN: true }), { minLength: 1, maxLength: 9 }), (x) => {
      const s = fresh([x]);
      const g = [Float32Array.from(x, (v) => roundTo("fp16", v / 3))];
      const a = offloadStep(s, g, { lr: 0.01 });
      const d = offloadStep(s, g, { lr: 0.01, dpu: true });
      expect(Array.from(d.state.master[0])).toEqual(Array.from(a.state.master[0]));
      expect(Array.from(d.params16[0])).toEqual(Array.from(Float32Array.from(x), (v) => roundTo("fp16", v)));
      expect(Array.from(s.master[0])).toEqual(Array.from(Float32Array.from(x))); // inputs untouched
    }));
  });

  it("the DPU warm-up: steps with t < dpuWarmupSteps are not delayed", () => {
    const s = { ...fresh([[1]]), t: 2 };
    const g = [Float32Array.of(0.5)];
    expect(offloadStep(s, g, { dpu: true, dpuWarmupSteps: 3 }).params16).toEqual(offloadStep(s, g, {}).params16);
    expect(offloadStep(s, g, { dpu: true, dpuWarmupSteps: 2 }).params16[0][0]).toBe(1);
  });

  it("bad input names the field", () => {
    expect(() => offloadStep(fresh([[1], [2]]), [Float32Array.of(1)])).toThrow(/^grads16 must have one tensor per parameter \(2\), got 1$/);
    expect(() => offloadStep(fresh([[1]]), [Float32Array.of(1)], { dpuWarmupSteps: -1 })).toThrow(/^dpuWarmupSteps must be an integer >= 0, got -1$/);
  });
});

describe("trainOffloaded(step, options)", () => {
  it("lowers the loss of lib/nn's model with fp16 compute and the CPU step; DPU ends elsewhere but also trains", async () => {
    const a = await trainOffloaded(offloadStep, { steps: 30 });
    const d = await trainOffloaded(offloadStep, { steps: 30, config: { dpu: true } });
    const mean = (l: number[]) => l.slice(-10).reduce((s, x) => s + x, 0) / 10;
    expect(mean(a.losses)).toBeLessThan(a.losses[0] * 0.85);
    expect(mean(d.losses)).toBeLessThan(d.losses[0] * 0.85);
    expect(d.losses).not.toEqual(a.losses);
  });
});

describe("chooseEvictions(x)", () => {
  it("worked example: evicts the chunk used farthest in the future", () => {
    expect(chooseEvictions({ onGpu: [0, 1, 2], need: [3], nextUse: [5, 1, 3, 2], chunkBytes: 10, budgetBytes: 30 })).toEqual([0]);
  });
  it("evicts nothing when everything fits, never a needed chunk, and just enough otherwise", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }), (n, cb, seed) => {
      const onGpu = Array.from({ length: n }, (_, i) => i).filter((i) => (seed >> i) & 1);
      const need = [n - 1];
      const nextUse = Array.from({ length: n }, (_, i) => ((i * 7 + seed) % 11) + 1);
      const budget = Math.max(1, n - 1) * cb;
      const missing = onGpu.includes(n - 1) ? 0 : 1;
      const total = (onGpu.length + missing) * cb;
      const ev = chooseEvictions({ onGpu, need, nextUse, chunkBytes: cb, budgetBytes: budget });
      if (total <= budget) expect(ev).toEqual([]);
      expect(ev).not.toContain(n - 1);
      expect(total - ev.length * cb).toBeLessThanOrEqual(budget);
      if (ev.length > 0) expect(total - (ev.length - 1) * cb).toBeGreaterThan(budget);
    }));
  });
  it("fails like Colossal-AI when even evicting everything is not enough", () => {
    expect(() => chooseEvictions({ onGpu: [0], need: [0, 1, 2], nextUse: [1, 1, 1], chunkBytes: 2048, budgetBytes: 4000 })).toThrow(/^Adjust layout failed: need 3 chunks \(6144 bytes\), budget 4000 bytes$/);
    expect(() => chooseEvictions({ onGpu: [], need: [], nextUse: [], chunkBytes: 0, budgetBytes: 1 })).toThrow(/^chunkBytes must be a number > 0, got 0$/);
  });
});
