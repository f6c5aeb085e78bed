import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { topKRouting, topKIndices, gatesBackward, type RoutingOrder } from "./moeRouting.js";
import { mulberry32 } from "../random.js";

const ORDERS: RoutingOrder[] = ["softmax-topk", "topk-softmax", "sigmoid"];
const softmax = (v: number[]) => { const m = Math.max(...v), e = v.map((x) => Math.exp(x - m)), z = e.reduce((a, b) => a + b, 0); return e.map((x) => x / z); };

describe("topKRouting", () => {
  it("topKRouting worked example: logits [2, 1, 0, −1], k = 2, each order", () => {
    const l = Float32Array.of(2, 1, 0, -1), p = softmax([2, 1, 0, -1]);
    const a = topKRouting(l, 1, 4, 2, "softmax-topk");
    expect(Array.from(a.experts)).toEqual([0, 1]);
    expect(a.gates[0]).toBeCloseTo(p[0], 7); // 0.6439: not renormalised
    expect(a.gates[1]).toBeCloseTo(p[1], 7); // 0.2369
    const b = topKRouting(l, 1, 4, 2, "topk-softmax");
    expect(b.gates[0]).toBeCloseTo(Math.exp(1) / (1 + Math.exp(1)), 7); // softmax of [2, 1]: 0.7311 (Mixtral)
    const c = topKRouting(l, 1, 4, 2, "sigmoid");
    const s = [2, 1].map((x) => 1 / (1 + Math.exp(-x)));
    expect(c.gates[0]).toBeCloseTo(s[0] / (s[0] + s[1]), 7);
  });

  it("topKRouting: topk-softmax equals softmax-topk renormalised over the chosen k (HF Mixtral's softmax, top-k, divide by the sum)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 1e6 }), (E, seed) => {
      const rng = mulberry32(seed), k = 1 + Math.floor(rng() * E);
      const l = Float32Array.from({ length: 3 * E }, () => rng() * 6 - 3);
      const a = topKRouting(l, 3, E, k, "softmax-topk"), b = topKRouting(l, 3, E, k, "topk-softmax");
      expect(Array.from(b.experts)).toEqual(Array.from(a.experts));
      for (let t = 0; t < 3; t++) {
        const z = Array.from(a.gates.subarray(t * k, (t + 1) * k)).reduce((x, y) => x + y, 0);
        for (let j = 0; j < k; j++) expect(b.gates[t * k + j]).toBeCloseTo(a.gates[t * k + j] / z, 6);
      }
    }));
  });

  it("topKRouting breaks ties toward the lower expert index, in every order", () => {
    for (const order of ORDERS) {
      const r = topKRouting(Float32Array.of(1, 3, 3, 3), 1, 4, 2, order);
      expect(Array.from(r.experts), order).toEqual([1, 2]);
    }
    expect(topKIndices([5, 5, 5], 3)).toEqual([0, 1, 2]);
  });

  it("topKRouting with k = E selects every expert; with N = 0 returns empty arrays", () => {
    const r = topKRouting(Float32Array.of(0, 1, 2), 1, 3, 3, "topk-softmax");
    expect(Array.from(r.experts)).toEqual([2, 1, 0]);
    expect(r.gates.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    const e = topKRouting(new Float32Array(0), 0, 4, 2, "softmax-topk");
    expect(e.experts.length + e.gates.length + e.probs.length).toBe(0);
  });

  it("topKRouting with a selection bias (sigmoid) selects on s + b but gates on s alone (DeepSeek-V3 Eq. 16)", () => {
    const l = Float32Array.of(2, 0, -1);
    const r = topKRouting(l, 1, 3, 1, "sigmoid", [0, 0, 1]);
    expect(r.experts[0]).toBe(2); // σ(−1) + 1 = 1.27 > σ(2) = 0.88
    expect(r.gates[0]).toBeCloseTo(1 / (1 + Math.exp(1)), 7); // σ(−1), not renormalised with k = 1
  });

  it("topKRouting rejects bad k, shapes, non-finite logits, orders and biases", () => {
    expect(() => topKRouting(new Float32Array(4), 1, 4, 5, "softmax-topk")).toThrow("topK must be an integer in [1, numExperts = 4], got 5");
    expect(() => topKRouting(new Float32Array(6), 2, 4, 1, "softmax-topk")).toThrow("logits must have rows·numExperts = 8 elements, got 6");
    expect(() => topKRouting(Float32Array.of(0, NaN), 1, 2, 1, "softmax-topk")).toThrow("logits[1] must be finite, got NaN");
    expect(() => topKRouting(new Float32Array(2), 1, 2, 1, "x" as RoutingOrder)).toThrow('order must be one of softmax-topk, topk-softmax, sigmoid, got "x"');
    expect(() => topKRouting(new Float32Array(2), 1, 2, 1, "sigmoid", [0])).toThrow("expertBias must have 2 elements, got 1");
  });
});

describe("gatesBackward", () => {
  it("gatesBackward matches central finite differences of Σ_j w_j·g_j (fixed selection), every order", () => {
    for (const order of ORDERS) {
      fc.assert(fc.property(fc.integer({ min: 0, max: 1e6 }), (seed) => {
        const rng = mulberry32(seed), E = 5, k = 1 + Math.floor(rng() * 3), N = 2;
        const l = Float64Array.from({ length: N * E }, () => rng() * 4 - 2);
        const w = Float32Array.from({ length: N * k }, () => rng() * 2 - 1);
        const r = topKRouting(Float32Array.from(l), N, E, k, order);
        const dl = gatesBackward(r, w);
        const f = (x: Float64Array) => { const q = topKRouting(Float32Array.from(x), N, E, k, order); return q.gates.reduce((s, g, i) => s + g * w[i], 0); };
        for (let i = 0; i < N * E; i++) {
          const up = Float64Array.from(l), dn = Float64Array.from(l), h = 1e-2;
          up[i] += h; dn[i] -= h;
          const same = [up, dn].every((x) => Array.from(topKRouting(Float32Array.from(x), N, E, k, order).experts).join() === Array.from(r.experts).join());
          if (!same) continue; // the selection changed: the function jumps there
          expect(dl[i]).toBeCloseTo((f(up) - f(dn)) / (2 * h), 3);
        }
      }), { numRuns: 20 });
    }
  });

  it("gatesBackward worked example: p = [1/2, 1/2], top-1, dg = 1 gives [1/4, −1/4]", () => {
    expect(Array.from(gatesBackward(topKRouting(Float32Array.of(0, 0), 1, 2, 1, "softmax-topk"), Float32Array.of(1)))).toEqual([0.25, -0.25]);
    expect(() => gatesBackward(topKRouting(Float32Array.of(0, 0), 1, 2, 1, "softmax-topk"), Float32Array.of(1, 2))).toThrow("dGates must have rows·topK = 1 elements, got 2");
  });

  it("gatesBackward with k = 1 and topk-softmax gives no gradient (the gate is always 1, as Mixtral's softmax over one logit)", () => {
    const r = topKRouting(Float32Array.of(0.3, -1, 2), 1, 3, 1, "topk-softmax");
    expect(r.gates[0]).toBe(1);
    expect(Array.from(gatesBackward(r, Float32Array.of(5))).every((v) => v === 0)).toBe(true);
  });
});
