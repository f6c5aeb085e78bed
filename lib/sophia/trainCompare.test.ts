import { describe, it, expect } from "vitest";
import { trainCompare } from "./trainCompare.js";

describe("trainCompare", () => {
  it("each optimizer lowers the loss on the character model in 60 steps; SophiaG spends one extra pass every k steps", () => {
    const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
    for (const [optimizer, lr] of [["adamw", 1e-2], ["lion", 3e-3], ["sophiag", 3e-3]] as const) {
      const r = trainCompare({ optimizer, lr, steps: 60, k: 7 });
      expect(mean(r.losses.slice(-10))).toBeLessThan(mean(r.losses.slice(0, 10)) - 0.3);
      // 60 steps, Hessian after 0-based steps 6, 13, …, 55: ⌊60/7⌋ = 8 extra passes (k does not divide 60)
      expect(r.passes.at(-1)).toBe(optimizer === "sophiag" ? 60 + 8 : 60);
      expect(r.clipFraction.length).toBe(optimizer === "sophiag" ? 60 : 0);
    }
  });
  it("the first k SophiaG steps run with h = 0: every coordinate with m ≠ 0 is clipped (only unused embedding rows, m = 0, are not)", () => {
    const r = trainCompare({ optimizer: "sophiag", lr: 1e-3, steps: 6, k: 5 });
    const early = Math.min(...r.clipFraction.slice(0, 5));
    expect(early).toBeGreaterThan(0.9);
    expect(r.clipFraction.every((f) => f >= 0 && f <= 1)).toBe(true);
  });
  it("gradient clipping at 1.0 by default for every optimizer (train_sophiag.py's grad_clip); 0 turns it off; wall-clock recorded per step", () => {
    const on = trainCompare({ optimizer: "sophiag", lr: 3e-3, steps: 12, k: 5 });
    const off = trainCompare({ optimizer: "sophiag", lr: 3e-3, steps: 12, k: 5, gradClip: 0 });
    const tight = trainCompare({ optimizer: "sophiag", lr: 3e-3, steps: 12, k: 5, gradClip: 1e-3 });
    expect(on.normClipped).toHaveLength(12);
    expect(off.normClipped).toHaveLength(0);
    expect(tight.normClipped.every(Boolean)).toBe(true); // a tiny threshold clips every step …
    expect(tight.losses.at(-1)).not.toBe(off.losses.at(-1)); // … and changes SophiaG's trajectory (h sees the clipped ĝ too)
    for (const r of [on, off]) {
      expect(r.ms).toHaveLength(12);
      expect(r.ms.every((t, i) => t > 0 && (i === 0 || t >= r.ms[i - 1]!))).toBe(true);
    }
    const lion = trainCompare({ optimizer: "lion", lr: 3e-3, steps: 5, gradClip: 1e-3 });
    expect(lion.normClipped).toEqual([true, true, true, true, true]);
  });
  it("bad input", () => {
    expect(() => trainCompare({ optimizer: "adamw", lr: 1e-3, steps: 3, gradClip: -1 })).toThrow(/gradClip must be a finite number >= 0, got -1/);
    expect(() => trainCompare({ optimizer: "sophiag", lr: 1e-3, steps: 3, k: 0 })).toThrow(/k must be an integer >= 1, got 0/);
    expect(() => trainCompare({ optimizer: "sophiag", lr: 1e-3, steps: 3, rho: 0 })).toThrow(/rho must be a finite number > 0, got 0/);
    expect(() => trainCompare({ optimizer: "sgd" as never, lr: 1e-3, steps: 3 })).toThrow(/optimizer must be one of adamw, lion, sophiag, sophiah, got sgd/);
    expect(() => trainCompare({ optimizer: "adamw", lr: 0, steps: 3 })).toThrow(/lr must be a finite number > 0, got 0/);
  });
});

describe("trainCompare: SophiaH", () => {
  it("refreshes h from Hutchinson every k steps (2 passes each) and reports negative entries and divergence", () => {
    const r = trainCompare({ optimizer: "sophiah", lr: 1e-3, steps: 12, k: 5 });
    if (r.divergedAt === null) {
      expect(r.passes.at(-1)).toBe(12 + 2 * 2);
      expect(r.negativeFraction.length).toBe(2);
    } else expect(r.divergedAt).toBeGreaterThan(4);
    // Hutchinson's estimate of an indefinite Hessian has negative entries (GNB never does)
    expect(r.negativeFraction[0]!).toBeGreaterThan(0);
    expect(r.negativeFraction.every((f) => f >= 0 && f <= 1)).toBe(true);
  });

  it("the control: SophiaH with the paper's denominator takes no uphill step, so its loss stays below the start", () => {
    const r = trainCompare({ optimizer: "sophiah", lr: 1e-3, steps: 40, k: 5, denominator: "paper" });
    expect(r.divergedAt).toBeNull();
    expect(r.negativeFraction[0]!).toBeGreaterThan(0); // the same negative entries of h
    expect(Math.max(...r.losses.slice(-10))).toBeLessThan(r.losses[0]!);
  });
});
