import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { createGpuAdam } from "./createGpuAdam.js";
import { adamLoop } from "./adamLoop.js";
import { normwiseUlps } from "./normwiseUlps.js";
import { AdamW, mulberry32, gaussian, type Param } from "../nn/index.js";

/** lib/nn's AdamW (the float32 reference) on one flat parameter, `steps` steps with the given gradients. */
function reference(x0: Float32Array, grads: Float32Array[], o: { lr: number; weightDecay: number }) {
  const p: Param = { name: "w", shape: [x0.length], data: x0.slice(), grad: new Float32Array(x0.length) };
  const opt = new AdamW([p], o);
  for (const g of grads) { p.grad.set(g); opt.step(); }
  return { x: p.data, m: opt.expAvg[0], v: opt.expAvgSq[0] };
}

const randn = (n: number, seed: number, scale = 1) => { const r = mulberry32(seed); return Float32Array.from({ length: n }, () => scale * gaussian(r)); };
/**
 * Norm-wise float32 tolerance: max |a − b| ≤ 16 · 2⁻²³ · max(max |b|, floor). Elementwise relative error is
 * meaningless where a value cancels to near 0; the floor is the size of what was added (lr for θ, |g| for m).
 */
const close = (a: Float32Array, b: Float32Array, floor = 0) => normwiseUlps(a, b, floor) <= 16;
const maxAbs = (gs: Float32Array[]) => gs.reduce((s, g) => g.reduce((t, x) => Math.max(t, Math.abs(x)), s), 0);

describe("createGpuAdam()", () => {
  it("equals lib/nn's AdamW within 16 float32 ulps of the largest value over 5 steps on 10,007 elements (webasm in Node)", () => {
    const n = 10_007, o = { lr: 1e-2, weightDecay: 0.1 };
    const x0 = randn(n, 1), grads = [2, 3, 4, 5, 6].map((s) => randn(n, s, 1e-3));
    const want = reference(x0, grads, o);
    const k = createGpuAdam();
    try {
      let s = { x: x0.slice(), m: new Float32Array(n), v: new Float32Array(n) };
      grads.forEach((g, i) => { s = k.step(s.x, g, s.m, s.v, i + 1, o); });
      expect(close(s.m, want.m, maxAbs(grads))).toBe(true);
      expect(close(s.v, want.v, maxAbs(grads) ** 2)).toBe(true);
      expect(close(s.x, want.x, o.lr)).toBe(true);
      expect(typeof k.mode).toBe("string");
    } finally { k.destroy(); }
  });

  it("returns new arrays and leaves its inputs alone; an empty tensor gives empty arrays", () => {
    const k = createGpuAdam();
    try {
      const x = Float32Array.of(1, 2, 3), g = Float32Array.of(0.1, -0.2, 0.3), m = new Float32Array(3), v = new Float32Array(3);
      const r = k.step(x, g, m, v, 1);
      expect(Array.from(x)).toEqual([1, 2, 3]);
      expect(r.x).not.toBe(x);
      expect(k.step(new Float32Array(0), new Float32Array(0), new Float32Array(0), new Float32Array(0), 1).x.length).toBe(0);
      expect(() => k.step(x, Float32Array.of(1), m, v, 1)).toThrow(/^g has 1 elements, x has 3$/);
      expect(() => k.step(x, g, m, v, 0)).toThrow(/^t must be an integer >= 1, got 0$/);
    } finally { k.destroy(); }
  });
});

describe("adamLoop(x, g, m, v, t, o)", () => {
  it("worked example: first step with lr 0.1 and no decay moves θ by lr·sign(g)", () => {
    const x = Float32Array.of(1, 1);
    adamLoop(x, Float32Array.of(0.5, -2), new Float32Array(2), new Float32Array(2), 1, { lr: 0.1, weightDecay: 0 });
    expect(x[0]).toBeCloseTo(0.9, 6);
    expect(x[1]).toBeCloseTo(1.1, 6);
  });

  it("equals lib/nn's AdamW within 16 ulps of the largest value on random sizes, gradients and decay", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 1e6 }), fc.double({ min: 0, max: 0.3, noNaN: true }), (n, seed, wd) => {
      const o = { lr: 3e-3, weightDecay: wd };
      const x0 = randn(n, seed), grads = [1, 2, 3].map((s) => randn(n, seed + s, 0.01));
      const want = reference(x0, grads, o);
      const x = x0.slice(), m = new Float32Array(n), v = new Float32Array(n);
      grads.forEach((g, i) => adamLoop(x, g, m, v, i + 1, o));
      expect(close(x, want.x, o.lr)).toBe(true);
      expect(close(m, want.m, maxAbs(grads))).toBe(true);
    }), { numRuns: 60 });
  });

  it("bad input names the field", () => {
    const a = new Float32Array(2);
    expect(() => adamLoop(a, a, a, a, 1, { lr: -1 })).toThrow(/^lr must be a finite number >= 0, got -1$/);
    expect(() => adamLoop(a, a, a, a, 1, { betas: [0.9, 1] })).toThrow(/^betas\[1\] must be in \[0, 1\), got 1$/);
    expect(() => adamLoop(a, new Float32Array(1), a, a, 1)).toThrow(/^g has 1 elements, x has 2$/);
  });
});

describe("normwiseUlps(a, ref, floor)", () => {
  it("worked example, equal arrays, NaN and length mismatch", () => {
    expect(normwiseUlps(Float32Array.of(1, 2 + 2 ** -22), Float32Array.of(1, 2))).toBe(1);
    expect(normwiseUlps([1, 2], [1, 2])).toBe(0);
    expect(normwiseUlps([NaN], [1])).toBe(Infinity);
    expect(normwiseUlps([1], [1, 2])).toBe(Infinity);
    expect(normwiseUlps([2 ** -30], [0], 1)).toBe(2 ** -7);
  });
});
