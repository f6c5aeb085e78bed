import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { winRate, rhoForWinRate, chooseRho, sophiagStepWithWinRate } from "./winRate.js";
import { sophiagStep } from "./sophiag.js";

const m3 = [0.1, 0.5, 0.3], h3 = [1, 1, 0];

describe("winRate, rhoForWinRate, chooseRho", () => {
  it("worked example: one of three coordinates wins at ρ = 0.2; the target 1/2 needs ρ above 0.5", () => {
    expect(winRate(m3, h3, 0.2, 1)).toBeCloseTo(1 / 3, 15);
    expect(rhoForWinRate(m3, h3, 1, 0.5)).toBe(0.5);
    expect(winRate(m3, h3, 0.5, 1)).toBeCloseTo(1 / 3, 15); // the code's test is strict: |m| < ρ·bs·h
    expect(winRate(m3, h3, 0.5000001, 1)).toBeCloseTo(2 / 3, 15);
    expect(chooseRho(m3, h3, 1, [0.1, 0.5], 0.04)).toBeCloseTo(Math.sqrt(0.05), 15);
  });
  it("edge cases: target 0, unreachable targets, ties that jump over a band, zero m, bad input", () => {
    expect(rhoForWinRate(m3, h3, 1, 0)).toBe(0);
    expect(rhoForWinRate(m3, h3, 1, 0.9)).toBeNull(); // the third coordinate has h = 0: it never wins
    expect(rhoForWinRate([1, 1, 1, 1], [1, 1, 1, 1], 2, 0.25)).toBe(0.5); // four equal thresholds: 0 or 4 win, so 1/4 needs all
    expect(chooseRho([1, 1, 1, 1], [1, 1, 1, 1], 2, [0.1, 0.5], 0.04)).toBe(0.04); // no ρ gives 1 or 2 of 4
    expect(chooseRho([0, 2], [1, 1], 1, [0.5, 0.5], 0.04)).toBe(1); // m = 0 wins for every ρ > 0: ρ below 2
    expect(rhoForWinRate([0.3, 0.1, 0.2], [1, 1, 1], 1, 0.3)).toBe(0.1); // 1/3 ≥ 0.3 (a product 0.3·3 would ask for 1 more)
    expect(() => rhoForWinRate(m3, h3, 1, 2)).toThrow(/^target must be a number in \[0, 1\], got 2$/);
    expect(() => rhoForWinRate(m3, [1], 1, 0.1)).toThrow(/^h must have 3 elements, got 1$/);
    expect(() => chooseRho(m3, h3, 1, [0.5, 0.1], 0.04)).toThrow(/band must be \[lo, hi\]/);
  });
  it("property: just above rhoForWinRate the win rate reaches the target, at it it does not; chooseRho lands in the band when any ρ does", () => {
    const arb = fc.record({
      rows: fc.array(fc.tuple(fc.integer({ min: -50, max: 50 }), fc.integer({ min: -3, max: 30 })), { minLength: 1, maxLength: 30 }),
      target: fc.constantFrom(0.1, 0.25, 0.3, 0.5, 0.7, 1), bs: fc.integer({ min: 1, max: 8 }),
    });
    fc.assert(fc.property(arb, ({ rows, target, bs }) => {
      const m = rows.map((r) => r[0] / 10), h = rows.map((r) => Math.max(0, r[1]) / 7);
      const rho = rhoForWinRate(m, h, bs, target);
      if (rho !== null && rho > 0) {
        expect(winRate(m, h, rho * (1 + 1e-12), bs)).toBeGreaterThanOrEqual(target); // the threshold is a real number: one rounding either side
        expect(winRate(m, h, rho * (1 - 1e-12), bs)).toBeLessThan(target);
      }
      const chosen = chooseRho(m, h, bs, [0.1, 0.5], -1);
      if (chosen !== -1) { const w = winRate(m, h, chosen, bs); expect(w).toBeGreaterThanOrEqual(0.1); expect(w).toBeLessThanOrEqual(0.5); }
    }), { numRuns: 400, seed: 29 });
  });
  it("sophiagStepWithWinRate is SophiaG's step with the chosen ρ", () => {
    const r = sophiagStepWithWinRate([1, 1, 1], m3, [0, 0, 0], h3, { lr: 0.1, betas: [0, 0.99], weightDecay: 0, bs: 1 });
    expect(r.rho).toBeCloseTo(Math.sqrt(0.05), 15);
    const s = sophiagStep([1, 1, 1], m3, [0, 0, 0], h3, { lr: 0.1, betas: [0, 0.99], weightDecay: 0, bs: 1, rho: r.rho });
    expect(Array.from(r.theta)).toEqual(Array.from(s.theta));
  });
});
