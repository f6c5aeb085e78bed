import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { attentionCaseArb, makeCase } from "./arbitraries.js";
import { flashAttentionBackward } from "./flashAttentionBackward.js";
import { flashAttentionForward } from "./flashAttentionForward.js";
import { randomTensor } from "./randomTensor.js";
import { referenceAttentionBackward } from "./referenceAttentionBackward.js";
import { isCausalAllowed } from "./isCausalAllowed.js";
import { maxAbsDiff } from "./maxAbsDiff.js";

/** A float64 attention written independently for finite differences: L = Σ dO ∘ O, one head. */
function loss(q: Float64Array, k: Float64Array, v: Float64Array, dO: Float32Array, Nq: number, Nk: number, d: number, causal: boolean): number {
  let L = 0;
  for (let i = 0; i < Nq; i++) {
    const s = Array.from({ length: Nk }, (_, j) => (causal && !isCausalAllowed(i, j, Nq, Nk) ? -Infinity : q.subarray(i * d, i * d + d).reduce((a, x, t) => a + x * k[j * d + t], 0) / Math.sqrt(d)));
    const m = Math.max(...s);
    if (m === -Infinity) continue;
    const e = s.map((x) => Math.exp(x - m));
    const z = e.reduce((a, b) => a + b, 0);
    for (let t = 0; t < d; t++) L += dO[i * d + t] * e.reduce((a, p, j) => a + (p / z) * v[j * d + t], 0);
  }
  return L;
}

describe("flashAttentionBackward and referenceAttentionBackward", () => {
  it("referenceAttentionBackward matches central finite differences of Σ dO∘O on tiny shapes (causal, Nq ≠ Nk)", () => {
    for (const [Nq, Nk, d, causal] of [[2, 3, 2, false], [3, 2, 2, true], [4, 4, 1, true]] as const) {
      const c = makeCase({ B: 1, H: 1, Nq, Nk, d }, Nq * 10 + Nk, causal ? { causal: "bottom-right" } : {});
      const dO = randomTensor(Nq * d, 77);
      const g = referenceAttentionBackward(c.q, c.k, c.v, dO, c.shape, c.opts);
      const h = 1e-6;
      for (const [name, t, grad] of [["q", c.q, g.dQ], ["k", c.k, g.dK], ["v", c.v, g.dV]] as const) {
        for (let e = 0; e < t.length; e++) {
          const plus = [c.q, c.k, c.v].map((a) => Float64Array.from(a));
          const minus = [c.q, c.k, c.v].map((a) => Float64Array.from(a));
          const which = name === "q" ? 0 : name === "k" ? 1 : 2;
          plus[which][e] += h;
          minus[which][e] -= h;
          const fd = (loss(plus[0], plus[1], plus[2], dO, Nq, Nk, d, causal) - loss(minus[0], minus[1], minus[2], dO, Nq, Nk, d, causal)) / (2 * h);
          expect(Math.abs(grad[e] - fd)).toBeLessThan(1e-6);
        }
      }
    }
  });
  it("flashAttentionBackward equals referenceAttentionBackward within 1e-5 for random shapes, masks and block sizes", () => {
    fc.assert(fc.property(attentionCaseArb(12, 6), fc.integer({ min: 1, max: 200 }), (c, M) => {
      const fwd = flashAttentionForward(c.q, c.k, c.v, c.shape, { ...c.opts, M });
      const dO = randomTensor(c.q.length, c.q.length + 5);
      const g = flashAttentionBackward(c.q, c.k, c.v, fwd.O, dO, fwd.lse, c.shape, { ...c.opts, M });
      const ref = referenceAttentionBackward(c.q, c.k, c.v, dO, c.shape, c.opts);
      return maxAbsDiff(g.dQ, ref.dQ) < 1e-5 && maxAbsDiff(g.dK, ref.dK) < 1e-5 && maxAbsDiff(g.dV, ref.dV) < 1e-5;
    }), { seed: 21, numRuns: 60 });
  });
  it("flashAttentionBackward gives zero gradients for fully masked rows and no NaN at logits of ±1e4", () => {
    const c = makeCase({ B: 1, H: 1, Nq: 6, Nk: 3, d: 2 }, 5, { causal: "bottom-right", amplitude: 70 });
    const fwd = flashAttentionForward(c.q, c.k, c.v, c.shape, { ...c.opts, M: 8, scale: 1 });
    const dO = randomTensor(12, 8);
    const g = flashAttentionBackward(c.q, c.k, c.v, fwd.O, dO, fwd.lse, c.shape, { ...c.opts, M: 8, scale: 1 });
    expect(Array.from(g.dQ.subarray(0, 6))).toEqual([0, 0, 0, 0, 0, 0]); // rows 0..2 see no key
    expect([...g.dQ, ...g.dK, ...g.dV].some(Number.isNaN)).toBe(false);
    const ref = referenceAttentionBackward(c.q, c.k, c.v, dO, c.shape, { ...c.opts, scale: 1 });
    expect(Math.max(...Array.from(fwd.lse).filter(Number.isFinite).map(Math.abs))).toBeGreaterThan(1000);
    // lse is saved in float32: near |lse| ≈ 5e3 its spacing is 4.9e-4, so P = exp(S − lse) carries a relative error up to ≈ 2.5e-4.
    const big = Math.max(...Array.from(ref.dV, Math.abs));
    expect(maxAbsDiff(g.dV, ref.dV)).toBeLessThan(1e-3 * big);
  });
  it("flashAttentionBackward throws a RangeError naming lse", () => {
    const c = makeCase({ B: 1, H: 1, Nq: 2, Nk: 2, d: 2 }, 1, {});
    expect(() => flashAttentionBackward(c.q, c.k, c.v, c.q, c.q, new Float32Array(1), c.shape, { M: 8 })).toThrow("lse must have length 2 (B·H·Nq), got 1");
  });
});
