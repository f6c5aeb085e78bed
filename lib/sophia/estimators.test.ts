import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { hutchinson, rademacher, fdHvp, sampleIndex, gnbGradients, modelGrad, modelHvp } from "./estimators.js";
import { corpus, createModel, DEFAULT_MODEL, sampleBatch, mulberry32, parameterCount, gaussian } from "../nn/index.js";

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => { let s = 0; for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!; return s; };

describe("Hutchinson on a quadratic with a known Hessian", () => {
  it("worked example", () => expect(Array.from(hutchinson([1, -1], [3, -2]))).toEqual([3, 2]));
  it("property: the mean of u⊙(Hu) over 4000 Rademacher probes is diag(H) within 0.1 (random diagonal incl. negative and zero, random off-diagonals |H_ij| ≤ 0.5)", () => {
    // per-coordinate variance Σ_{j≠i} H_ij² ≤ 3·0.25, so the mean's std ≤ 0.0137: 0.1 is > 7 std.
    fc.assert(fc.property(
      fc.array(fc.oneof(fc.constant(0), fc.double({ min: -5, max: 5, noNaN: true })), { minLength: 4, maxLength: 4 }),
      fc.array(fc.double({ min: -0.5, max: 0.5, noNaN: true }), { minLength: 6, maxLength: 6 }),
      fc.integer({ min: 0, max: 1e6 }),
      (diag, off, seed) => {
        const n = 4, H = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? diag[i]! : 0)));
        let q = 0;
        for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) { H[i]![j] = off[q]!; H[j]![i] = off[q++]!; }
        const grad = (x: Float64Array) => Float64Array.from(H, (row) => dot(row, x));
        const rng = mulberry32(seed), sum = new Float64Array(n), S = 4000, theta = [0.3, -1, 2, 0.5];
        for (let s = 0; s < S; s++) { const u = rademacher(n, rng); const e = hutchinson(u, fdHvp(grad, theta, u, 1e-3)); for (let i = 0; i < n; i++) sum[i] += e[i]!; }
        return diag.every((d, i) => Math.abs(sum[i]! / S - d) < 0.1);
      }), { numRuns: 20 });
  });
  it("for a diagonal H a single Rademacher probe is exact (u_i² = 1)", () => {
    const d = [2, -1, 0, 0.5], grad = (x: Float64Array) => Float64Array.from(x, (v, i) => d[i]! * v);
    const u = rademacher(4, mulberry32(3));
    Array.from(hutchinson(u, fdHvp(grad, [1, 1, 1, 1], u, 1e-2))).forEach((e, i) => expect(e).toBeCloseTo(d[i]!, 10));
  });
  it("fdHvp rejects δ <= 0", () => expect(() => fdHvp((x) => x, [1], [1], 0)).toThrow(/delta must be a finite number > 0, got 0/));
});

describe("GNB on softmax cross-entropy, where Gauss-Newton = Hessian: diag = p(1 − p)", () => {
  it("property: the mean of B·ĝ⊙ĝ over 3000 draws (ĝ = mean over B sampled labels of p − e_ŷ) is p(1 − p) within 0.03", () => {
    // ĝ_i² ≤ 1 per label; for B = 4 the estimate B·ĝ_i² ≤ 4, so the mean's std ≤ 4/(2·√3000) ≈ 0.037 in the worst
    // case; typical std is < 0.01 here. The tolerance is stated as 0.03 and the probabilities bounded away from 0.
    fc.assert(fc.property(fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: 3, maxLength: 6 }), fc.integer({ min: 0, max: 1e6 }), (z, seed) => {
      const mx = Math.max(...z), e = z.map((v) => Math.exp(v - mx)), Z = e.reduce((a, b) => a + b, 0), p = e.map((v) => v / Z);
      const V = p.length, B = 4, S = 3000, rng = mulberry32(seed), sum = new Float64Array(V);
      for (let s = 0; s < S; s++) {
        const g = new Float64Array(V);
        for (let b = 0; b < B; b++) { const y = sampleIndex(p, 0, V, rng); for (let i = 0; i < V; i++) g[i] += (p[i]! - (i === y ? 1 : 0)) / B; }
        for (let i = 0; i < V; i++) sum[i] += B * g[i]! * g[i]!;
      }
      return p.every((pi, i) => Math.abs(sum[i]! / S - pi * (1 - pi)) < 0.03);
    }), { numRuns: 20 });
  });
  it("sampleIndex: empirical frequencies match the distribution", () => {
    const p = [0.1, 0.6, 0.3], rng = mulberry32(9), c = [0, 0, 0];
    for (let s = 0; s < 20000; s++) c[sampleIndex(p, 0, 3, rng)]++;
    c.forEach((n, i) => expect(Math.abs(n / 20000 - p[i]!)).toBeLessThan(0.015));
    expect(sampleIndex([0, 1], 0, 2, mulberry32(0))).toBe(1);
  });
});

describe("estimators on lib/nn's model", () => {
  const { vocab, tokens } = corpus();
  const model = createModel({ ...DEFAULT_MODEL, vocabSize: vocab.size });
  const batch = sampleBatch(tokens, { batchSize: 4, seqLen: 8, contextLength: DEFAULT_MODEL.contextLength }, mulberry32(5));
  const n = parameterCount(model.params);

  it("GNB gradients average to ≈ 0 (E over ŷ ~ p of ∇ log p(ŷ) = 0), unlike the true-label gradient", () => {
    const trueNorm = Math.sqrt(dot(modelGrad(model, batch), modelGrad(model, batch)));
    const rng = mulberry32(11), mean = new Float64Array(n), S = 200;
    for (let s = 0; s < S; s++) {
      gnbGradients(model, batch, rng);
      let o = 0; for (const p of model.params) for (let i = 0; i < p.grad.length; i++) mean[o++] += p.grad[i]! / S;
    }
    // one sampled gradient has norm comparable to the true one; the mean of S = 200 shrinks like 1/√S ≈ 0.07
    expect(Math.sqrt(dot(mean, mean))).toBeLessThan(0.2 * trueNorm);
  });

  it("finite-difference Hvp error, measured: symmetry uᵀ(Hv) = vᵀ(Hu) within 2 %, and δ = 1e-2 vs 3e-3 agree within 2 %", () => {
    const rng = mulberry32(2);
    const u = Float64Array.from({ length: n }, () => gaussian(rng)), v = Float64Array.from({ length: n }, () => gaussian(rng));
    const hu = modelHvp(model, batch, u, 1e-2), hv = modelHvp(model, batch, v, 1e-2), hu2 = modelHvp(model, batch, u, 3e-3);
    const sym = Math.abs(dot(u, hv) - dot(v, hu)) / Math.abs(dot(u, hu));
    const diff = hu.map((x, i) => x - hu2[i]!);
    const rel = Math.sqrt(dot(diff, diff) / dot(hu, hu));
    expect(sym).toBeLessThan(0.02);
    expect(rel).toBeLessThan(0.02);
    const before = model.params.map((p) => p.data.slice());
    modelHvp(model, batch, u);
    model.params.forEach((p, j) => expect(p.data).toEqual(before[j]));
  });
});

import { gnbLogitEstimate } from "./estimators.js";
describe("gnbLogitEstimate", () => {
  it("worked examples (by hand) and errors", () => {
    expect(gnbLogitEstimate([0.5, 0.5], [0, 1])).toEqual([0, 0]);
    expect(gnbLogitEstimate([0.5, 0.5], [0])).toEqual([0.25, 0.25]);
    // p = [0.2, 0.8], labels [1, 1]: ĝ = [0.2, 0.8 − 1] = [0.2, −0.2]; 2·ĝ² = [0.08, 0.08]
    gnbLogitEstimate([0.2, 0.8], [1, 1]).forEach((v) => expect(v).toBeCloseTo(0.08, 14));
    expect(() => gnbLogitEstimate([1], [])).toThrow(/labels must hold at least one label/);
    expect(() => gnbLogitEstimate([0.5, 0.5, 0], [0, 3])).toThrow(/labels\[1\] must be an integer in \[0, 3\), got 3/);
    expect(() => gnbLogitEstimate([0.25, 0.25], [0])).toThrow(/probs must be >= 0 and sum to 1, got sum 0.5/);
  });
  it("its mean over sampled labels is p(1 − p)", () => {
    const p = [0.1, 0.3, 0.6], rng = mulberry32(4), S = 5000, sum = [0, 0, 0];
    for (let s = 0; s < S; s++) { const ls = [0, 1, 2].map(() => sampleIndex(p, 0, 3, rng)); gnbLogitEstimate(p, ls).forEach((v, i) => (sum[i] += v / S)); }
    p.forEach((pi, i) => expect(Math.abs(sum[i]! - pi * (1 - pi))).toBeLessThan(0.02));
  });
});
