import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { zbH1Schedule, oneFOneBSchedule, stepTime, bubbleFraction, bubbleFractionOfStep, closedFormBubble, zeroBubblePassFlops } from "./index.js";

const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(b)));

describe("ZB-H1 with fewer micro-batches than stages (Qi et al., Appendix H)", () => {
  it("p = 4, m = 2: the schedule measures 5/6 of the ideal time, and the closed form says the same (it said 1/2 before)", () => {
    close(bubbleFraction(zbH1Schedule(4, 2)), 5 / 6);
    close(closedFormBubble("zb-h1", 4, 2), 5 / 6);
  });
  it("closedFormBubble(\"zb-h1\") equals the event-list measure for every p and m, below and above p (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 16 }), (p, m) => {
      close(bubbleFraction(zbH1Schedule(p, m)), closedFormBubble("zb-h1", p, m));
    }));
  });
  it("the step is (m + p − 1)(F + B) + W for m ≤ p and m(F + B + W) + (p − 1)(F + B − W) for m ≥ p, whenever W ≤ F and W ≤ B (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 14 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), (p, m, F, B, W0) => {
      const W = Math.min(W0, F, B);
      const want = m <= p ? (m + p - 1) * (F + B) + W : m * (F + B + W) + (p - 1) * (F + B - W);
      close(stepTime(zbH1Schedule(p, m, { forward: F, backward: B, weight: W })), want);
    }));
  });
});

describe("zeroBubblePassFlops (Qi et al., Table 1)", () => {
  it("the 1.5B model of Qi's Table 3 (h = 2304, s = 1024, b = 1): F = sbh(24h + 4s), B = sbh(24h + 8s), W = 24sbh²", () => {
    expect(zeroBubblePassFlops({ seqLen: 1024, microBatch: 1, hiddenSize: 2304 })).toEqual({ forward: 140_123_308_032, backward: 149_786_984_448, weight: 130_459_631_616 });
  });
  it("B + W = 2F and W < F < B; F is Narayanan's forward 24bsh²(1 + s/6h) (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 8192 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8192 }), (s, b, h) => {
      const r = zeroBubblePassFlops({ seqLen: s, microBatch: b, hiddenSize: h });
      close(r.backward + r.weight, 2 * r.forward);
      expect(r.weight).toBeLessThan(r.forward);
      expect(r.forward).toBeLessThan(r.backward);
      close(r.forward, 24 * b * s * h * h * (1 + s / (6 * h)));
    }));
  });
  it("with Table 1's times, ZB-H1 removes less than two thirds of 1F1B's bubble: p = 8, m = 24 (Qi's 1.5B setting) gives 0.2258 → 0.0996 of the step", () => {
    const t = zeroBubblePassFlops({ seqLen: 1024, microBatch: 1, hiddenSize: 2304 });
    const times = { forward: t.forward, backward: t.backward, weight: t.weight };
    const one = bubbleFractionOfStep(oneFOneBSchedule(8, 24, times)), zb = bubbleFractionOfStep(zbH1Schedule(8, 24, times));
    close(one, 7 / 31);
    expect(zb).toBeCloseTo(0.0996, 4);
    expect(zb / one).toBeGreaterThan(1 / 3); // a third only when F = B = W
  });
  it("names the bad field", () => {
    expect(() => zeroBubblePassFlops({ seqLen: 0, microBatch: 1, hiddenSize: 1 })).toThrow("seqLen must be an integer >= 1, got 0");
  });
});
