import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { AdamW, type Param } from "../nn/index.js";
import { rollbackAdamW } from "./index.js";

const param = (data: number[], grad: number[]): Param => ({ name: "w", shape: [data.length], data: Float32Array.from(data), grad: Float32Array.from(grad) });
/** Distance in float32 units in the last place (same sign assumed near each other). */
const ulps = (a: number, b: number) => {
  const ia = new Int32Array(Float32Array.of(a).buffer)[0], ib = new Int32Array(Float32Array.of(b).buffer)[0];
  return Math.abs((ia < 0 ? 0x80000000 - ia : ia) - (ib < 0 ? 0x80000000 - ib : ib));
};
const maxUlps = (a: ArrayLike<number>, b: ArrayLike<number>) => Math.max(0, ...Array.from(a, (x, i) => ulps(x, b[i])));
const arbVec = fc.array(fc.float({ min: -4, max: 4, noNaN: true, noDefaultInfinity: true }).filter((x) => Math.abs(x) > 1e-3), { minLength: 1, maxLength: 8 });

describe("rollbackAdamW (Qi et al., Appendix C, Algorithm 1)", () => {
  it("worked example: one step of PyTorch's default AdamW and its rollback give back θ within 2 float32 ulps, and t = 0", () => {
    const p = param([1, -2, 0.5], [0.1, -0.3, 2]), before = Float32Array.from(p.data);
    const opt = new AdamW([p]);
    opt.step();
    expect(maxUlps(p.data, before)).toBeGreaterThan(0); // it moved
    rollbackAdamW(opt);
    expect(opt.stepCount).toBe(0);
    expect(maxUlps(p.data, before)).toBeLessThanOrEqual(2);
    expect(Array.from(opt.expAvg[0], Math.abs).every((x) => x < 1e-8)).toBe(true); // the moments were zero
  });
  it("the post-validation path: step eagerly, roll back, step with clipped gradients = the clipped step alone, within 8 ulps (property, after a few earlier steps)", () => {
    fc.assert(fc.property(arbVec, fc.integer({ min: 0, max: 4 }), fc.double({ min: 0.05, max: 0.95, noNaN: true }), (g, warm, clip) => {
      const run = (eager: boolean) => {
        const p = param(g.map((x) => x / 2 + 1), g);
        const opt = new AdamW([p], { lr: 1e-2 });
        for (let k = 0; k < warm; k++) opt.step();
        if (eager) { opt.step(); rollbackAdamW(opt); }
        p.grad = Float32Array.from(g, (x) => Math.fround(x * clip));
        opt.step();
        return { x: p.data, m: opt.expAvg[0], t: opt.stepCount };
      };
      const a = run(true), b = run(false);
      expect(a.t).toBe(b.t);
      expect(maxUlps(a.x, b.x)).toBeLessThanOrEqual(8);
    }), { numRuns: 100 });
  });
  it("is not bit for bit: some inputs come back a few ulps off (why sail-sg can keep a copy for an exact match)", () => {
    let off = 0;
    fc.assert(fc.property(arbVec, (g) => {
      const p = param(g.map((x) => x + 0.3), g), before = Float32Array.from(p.data);
      const opt = new AdamW([p], { lr: 1e-2 });
      opt.step(); rollbackAdamW(opt);
      off = Math.max(off, maxUlps(p.data, before));
    }), { numRuns: 200, seed: 7 });
    expect(off).toBeGreaterThan(0);
  });
  it("refuses what it cannot undo", () => {
    const opt = new AdamW([param([1], [1])]);
    expect(() => rollbackAdamW(opt)).toThrow("rollbackAdamW needs a step to undo (stepCount is 0)");
    const zero = new AdamW([param([1], [1])], { betas: [0, 0.999] });
    zero.step();
    expect(() => rollbackAdamW(zero)).toThrow(/beta1 = 0 or beta2 = 0/);
  });
});
