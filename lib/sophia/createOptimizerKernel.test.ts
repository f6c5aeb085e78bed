import { describe, it, expect, afterAll } from "vitest";
import fc from "fast-check";
import { createOptimizerKernel, type OptimizerKernel } from "./createOptimizerKernel.js";
import { sophiagStep } from "./sophiag.js";
import { sophiagKernelError } from "./sophiagKernelError.js";
import { lionStep } from "./lion.js";
import { AdamW, mulberry32, type Param } from "../nn/index.js";

const TOL = 2 ** -20; // float32 has 24 significant bits: a few roundings (and GLSL's ~2.5-ulp division) stay far below this

/** n float32 values: magnitudes 2^-12 … 2^4, both signs, with exact zeros sprinkled in. */
function values(n: number, seed: number, positive = false): Float32Array {
  const r = mulberry32(seed);
  return Float32Array.from({ length: n }, () => (r() < 0.05 ? 0 : (positive || r() < 0.5 ? 1 : -1) * 2 ** (r() * 16 - 12)));
}

/** The kernel's step against sophiagStep (lib/sophia/sophiagKernelError.ts gives the per-coordinate scales). */
function sophiaWithin(k: OptimizerKernel, theta: Float32Array, grad: Float32Array, m: Float32Array, h: Float32Array, cfg: { lr: number; betas: [number, number]; rho: number; weightDecay: number; bs: number }) {
  return sophiagKernelError(theta, grad, m, h, cfg, k.step({ theta, grad, m, s: h }, cfg));
}

describe("createOptimizerKernel: SophiaG equals sophiagStep within float32 tolerance", () => {
  const kernels: OptimizerKernel[] = [];
  afterAll(() => kernels.forEach((k) => k.destroy()));
  for (const mode of ["gpu", "cpu"]) {
    it(`${mode}: 100,000 coordinates with zero, negative and positive h`, () => {
      const k = createOptimizerKernel("sophiag", mode);
      kernels.push(k);
      const n = 100_000, theta = values(n, 1), grad = values(n, 2), m = values(n, 3);
      const h = Float32Array.from(values(n, 4, true), (v, i) => (i % 10 === 0 ? -v : i % 10 === 1 ? 0 : v) * 1e-4);
      const cfg = { lr: 3e-3, betas: [0.965, 0.99] as [number, number], rho: 0.05, weightDecay: 0.1, bs: 128 };
      const r = sophiaWithin(k, theta, grad, m, h, cfg);
      expect(r.worstTheta).toBeLessThan(TOL);
      expect(r.worstM).toBeLessThan(TOL);
      expect(["webasm", "cpu", "headlessgl"]).toContain(k.backend);
      // the three regimes are all present: clipped, unclipped, uphill (h < 0)
      const ref = sophiagStep(theta, grad, m, h, cfg);
      expect(ref.clipped).toBeGreaterThan(1000);
      expect(ref.clipped).toBeLessThan(n - 1000);
    });
  }
  it("the worked example (the page's three coordinates: unclipped, clipped, uphill)", () => {
    const k = createOptimizerKernel("sophiag", "cpu");
    try {
      const out = k.step({ theta: Float32Array.of(1, 0, 0), grad: Float32Array.of(0.5, 0.5, 0.5), m: new Float32Array(3), s: Float32Array.of(0.5, 0, -0.1) }, { lr: 0.1, betas: [0.5, 0.9], rho: 1, weightDecay: 0, bs: 1 });
      // hand: m = 0.25; ratios 0.25/0.5 = 0.5, 0.25/1e-15 → 1, 0.25/(−0.1) = −2.5 → θ = 1 − 0.05, −0.1, +0.25
      expect(Array.from(out.theta)).toEqual([Math.fround(0.95), Math.fround(-0.1), 0.25]);
      expect(Array.from(out.m)).toEqual([0.25, 0.25, 0.25]);
    } finally { k.destroy(); }
  });
  it("property: random hyperparameters and vectors (webasm)", () => {
    const k = createOptimizerKernel("sophiag");
    try {
      fc.assert(fc.property(fc.integer({ min: 1, max: 64 }), fc.integer(), fc.double({ min: 1e-4, max: 0.1, noNaN: true }), fc.double({ min: 0.01, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 99 }).map((b) => b / 100), fc.integer({ min: 1, max: 4096 }), fc.double({ min: 0, max: 0.5, noNaN: true }),
        (n, seed, lr, rho, b1, bs, weightDecay) => {
          const h = Float32Array.from(values(n, seed + 4), (v) => v * 1e-3);
          const r = sophiaWithin(k, values(n, seed), values(n, seed + 1), values(n, seed + 2), h, { lr, rho, bs, weightDecay, betas: [b1, 0.99] });
          return r.worstTheta < TOL && r.worstM < TOL;
        }), { numRuns: 40 });
    } finally { k.destroy(); }
  });
  it("sophiagKernelError catches a kernel that misplaces bs, drops the weight decay or flips the uphill step", () => {
    const n = 2000, theta = values(n, 11), grad = values(n, 12), m = values(n, 13), h = Float32Array.from(values(n, 14), (v) => v * 1e-4);
    const cfg = { lr: 3e-3, betas: [0.965, 0.99] as [number, number], rho: 0.05, weightDecay: 0.1, bs: 128 };
    const good = sophiagStep(theta, grad, m, h, cfg);
    const noBs = sophiagStep(theta, grad, m, h, { ...cfg, bs: 1 });
    const noWd = sophiagStep(theta, grad, m, h, { ...cfg, weightDecay: 0 });
    const paperMax = sophiagStep(theta, grad, m, Float32Array.from(h, (v) => Math.max(v, 0)), cfg);
    expect(sophiagKernelError(theta, grad, m, h, cfg, good).worstTheta).toBe(0);
    for (const bad of [noBs, noWd, paperMax]) expect(sophiagKernelError(theta, grad, m, h, cfg, bad).worstTheta).toBeGreaterThan(100 * TOL); // dropping λ alone moves θ by lr·λ·|θ| = 3e-4 of |θ|
    expect(() => sophiagKernelError([1], [1], [0], [0], cfg, { theta: [], m: [0] })).toThrow(/out.theta must have 1 elements, got 0/);
  });
  it("bad input names the field; n = 0 gives empty arrays", () => {
    const k = createOptimizerKernel("sophiag", "cpu");
    try {
      const one = { theta: Float32Array.of(1), grad: Float32Array.of(1), m: Float32Array.of(0), s: Float32Array.of(0) };
      expect(() => k.step(one, { rho: 0 })).toThrow(/rho must be a finite number > 0, got 0/);
      expect(() => k.step(one, { betas: [0.9, 1] })).toThrow(/betas\[1\] must be in \[0, 1\), got 1/);
      expect(() => k.step(one, { bs: 0 })).toThrow(/bs must be a finite number > 0, got 0/);
      expect(() => k.step({ ...one, grad: Float32Array.of(NaN) })).toThrow(/grad\[0\] must be finite, got NaN/);
      expect(() => k.step({ ...one, s: new Float32Array(0) })).toThrow(/s must have 1 elements, got 0/);
      expect(k.step({ theta: new Float32Array(0), grad: new Float32Array(0), m: new Float32Array(0), s: new Float32Array(0) }).theta).toHaveLength(0);
      expect(() => createOptimizerKernel("sgd" as never)).toThrow(/optimizer must be one of sophiag, lion, adamw, got sgd/);
    } finally { k.destroy(); }
  });
});

describe("createOptimizerKernel: Lion and AdamW equal their CPU references", () => {
  it("Lion equals lionStep (θ exactly up to float32 rounding where sign(c) is certain)", () => {
    const k = createOptimizerKernel("lion");
    try {
      const n = 50_000, theta = values(n, 5), grad = values(n, 6), m = values(n, 7), cfg = { lr: 1e-3, betas: [0.9, 0.99] as [number, number], weightDecay: 0.1 };
      const ref = lionStep(theta, grad, m, cfg), out = k.step({ theta, grad, m }, cfg);
      let checked = 0;
      const bad: number[] = [];
      for (let i = 0; i < n; i++) {
        const size = Math.abs(0.9 * m[i]!) + Math.abs(0.1 * grad[i]!);
        if (!(Math.abs(out.m[i]! - ref.m[i]!) <= TOL * (Math.abs(0.99 * m[i]!) + Math.abs(0.01 * grad[i]!)))) bad.push(i);
        const c = 0.9 * m[i]! + 0.1 * grad[i]!;
        if (Math.abs(c) <= TOL * size) continue; // the sign of a cancelling c is not determined in float32
        checked++;
        if (!(Math.abs(out.theta[i]! - ref.theta[i]!) <= TOL * (Math.abs(theta[i]!) + cfg.lr))) bad.push(i);
      }
      expect(bad).toEqual([]);
      expect(checked).toBeGreaterThan(n * 0.9);
    } finally { k.destroy(); }
  });
  it("AdamW equals lib/nn's AdamW at step t = 2", () => {
    const k = createOptimizerKernel("adamw");
    try {
      const n = 50_000, p: Param = { name: "w", shape: [n], data: values(n, 8), grad: values(n, 9) };
      const opt = new AdamW([p], { lr: 1e-2, weightDecay: 0.1 });
      opt.step();
      p.grad.set(values(n, 10));
      const before = { theta: p.data.slice(), grad: p.grad.slice(), m: opt.expAvg[0]!.slice(), s: opt.expAvgSq[0]!.slice() };
      opt.step();
      const out = k.step(before, { lr: 1e-2, weightDecay: 0.1, t: 2 });
      const bad: number[] = [];
      for (let i = 0; i < n; i++) {
        const ok = Math.abs(out.m[i]! - opt.expAvg[0]![i]!) <= TOL * (Math.abs(before.m[i]!) + Math.abs(before.grad[i]!))
          && Math.abs(out.s![i]! - opt.expAvgSq[0]![i]!) <= TOL * (before.s[i]! + before.grad[i]! ** 2)
          && Math.abs(out.theta[i]! - p.data[i]!) <= TOL * (Math.abs(before.theta[i]!) + 1e-2 / 0.19 * 2); // |m̂/√v̂| stays below 2 on these inputs
        if (!ok) bad.push(i);
      }
      expect(bad).toEqual([]);
      expect(() => k.step(before, { t: 0 })).toThrow(/t must be an integer >= 1, got 0/);
    } finally { k.destroy(); }
  });
});
