import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { loadBalancingLoss, routerZLoss } from "./moeLosses.js";
import { topKRouting, type RoutingOrder } from "./moeRouting.js";
import { mulberry32 } from "../random.js";

describe("loadBalancingLoss", () => {
  it("loadBalancingLoss is 1 (α·E·Σ f·P = α at α = 1) when routing is uniform, as Switch Transformer §2.2 intends", () => {
    // 4 tokens, 4 experts, token t's logits favour expert t slightly: f_i = 1/4 and P_i = 1/4 by symmetry
    const l = new Float32Array(16);
    for (let t = 0; t < 4; t++) l[t * 4 + t] = 0.5;
    expect(loadBalancingLoss(topKRouting(l, 4, 4, 1, "softmax-topk")).loss).toBeCloseTo(1, 6);
  });
  it("loadBalancingLoss of a collapsed router (every token sends all its probability to expert 0) tends to E/k", () => {
    const E = 8, N = 16, l = new Float32Array(N * E);
    for (let t = 0; t < N; t++) l[t * E] = 30;
    expect(loadBalancingLoss(topKRouting(l, N, E, 1, "softmax-topk")).loss).toBeCloseTo(E, 5);
    // with k = 2 the second choice is spread by ties onto expert 1: f = [1/2, 1/2, 0…], P ≈ [1, 0…] → E/2
    expect(loadBalancingLoss(topKRouting(l, N, E, 2, "softmax-topk")).loss).toBeCloseTo(E / 2, 5);
  });
  it("loadBalancingLoss 'gshard' is the Switch loss divided by E² when k = 1", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e6 }), (seed) => {
      const rng = mulberry32(seed), E = 2 + Math.floor(rng() * 6), N = 1 + Math.floor(rng() * 12);
      const r = topKRouting(Float32Array.from({ length: N * E }, () => rng() * 4 - 2), N, E, 1, "softmax-topk");
      expect(loadBalancingLoss(r, "gshard").loss * E * E).toBeCloseTo(loadBalancingLoss(r).loss, 6);
    }));
  });
  it("loadBalancingLoss's gradient matches central finite differences with the counts held fixed (softmax and sigmoid)", () => {
    for (const order of ["topk-softmax", "sigmoid"] as RoutingOrder[]) {
      const rng = mulberry32(4), E = 5, N = 6, k = 2;
      const l = Float32Array.from({ length: N * E }, () => rng() * 4 - 2);
      const r = loadBalancingLoss(topKRouting(l, N, E, k, order));
      // with fixed counts c_i the loss is linear in P: E/(k·N²) Σ c_i Σ_t p_{t,i}
      const f = (x: Float32Array) => { const q = topKRouting(x, N, E, k, order).probs; let s = 0; for (let t = 0; t < N; t++) for (let i = 0; i < E; i++) s += r.tokensPerExpert[i] * q[t * E + i]; return (E / (k * N * N)) * s; };
      for (let i = 0; i < N * E; i++) {
        const up = l.slice(), dn = l.slice(), h = 1e-2;
        up[i] += h; dn[i] -= h;
        expect(r.dLogits[i], `${order} [${i}]`).toBeCloseTo((f(up) - f(dn)) / (up[i] - dn[i]), 4);
      }
    }
  });
  it("loadBalancingLoss of no tokens is 0; an unknown variant throws", () => {
    expect(loadBalancingLoss(topKRouting(new Float32Array(0), 0, 4, 2, "softmax-topk")).loss).toBe(0);
    expect(() => loadBalancingLoss(topKRouting(new Float32Array(2), 1, 2, 1, "softmax-topk"), "x" as "switch")).toThrow('variant must be "switch" or "gshard", got "x"');
  });
});

describe("routerZLoss", () => {
  it("routerZLoss of zero logits over E experts is (ln E)²; its gradient is 2·lse·softmax/N", () => {
    const z = routerZLoss(new Float32Array(8), 2, 4);
    expect(z.loss).toBeCloseTo(Math.log(4) ** 2, 6);
    expect(z.dLogits[0]).toBeCloseTo((2 * Math.log(4) / 2) * 0.25, 6);
  });
  it("routerZLoss's gradient matches central finite differences (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e6 }), (seed) => {
      const rng = mulberry32(seed), E = 1 + Math.floor(rng() * 6), N = 1 + Math.floor(rng() * 4);
      const l = Float32Array.from({ length: N * E }, () => rng() * 6 - 3);
      const z = routerZLoss(l, N, E);
      for (let i = 0; i < N * E; i++) {
        const up = l.slice(), dn = l.slice();
        up[i] += 1e-2; dn[i] -= 1e-2;
        expect(z.dLogits[i]).toBeCloseTo((routerZLoss(up, N, E).loss - routerZLoss(dn, N, E).loss) / (up[i] - dn[i]), 3);
      }
    }), { numRuns: 30 });
  });
  it("routerZLoss checks the shape", () => {
    expect(() => routerZLoss(new Float32Array(6), 2, 4)).toThrow("logits must have rows·numExperts = 8 elements, got 6");
    expect(routerZLoss(new Float32Array(0), 0, 4).loss).toBe(0);
  });
});
