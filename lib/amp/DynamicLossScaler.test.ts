import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { DynamicLossScaler, LossScaler, MIN_SCALE_ERROR, dynamicLossScaleUpdate, type DynamicLossScalerOptions } from "./DynamicLossScaler.js";

const notes: DynamicLossScalerOptions = { initScale: 2 ** 16, scaleWindow: 100, minScale: 1e-10, delayedShift: 2, consecutiveHysteresis: false };

function run(o: DynamicLossScalerOptions, overflows: boolean[]): number[] {
  const s = new DynamicLossScaler(o);
  return overflows.map((ov) => (s.updateScale(ov), s.lossScale));
}

describe("DynamicLossScaler", () => {
  it("DynamicLossScaler with hysteresis 2 (the notes' config) halves only on the second overflow", () => {
    expect(run(notes, [true, true, true])).toEqual([65536, 32768, 16384]);
  });

  it("DynamicLossScaler without consecutive_hysteresis does not refill hysteresis on clean steps, only at growth", () => {
    // overflow (hyst 2→1), clean, overflow → halves because hysteresis is still 1
    expect(run(notes, [true, false, true])).toEqual([65536, 65536, 32768]);
    // with consecutive_hysteresis the clean step refills it: no halving
    expect(run({ ...notes, consecutiveHysteresis: true }, [true, false, true])).toEqual([65536, 65536, 65536]);
  });

  it("DynamicLossScaler (DeepSpeed ≥ 0.17.1) doubles on the (window + 1)-th clean iteration, from the start and after an overflow (trace, window 3)", () => {
    const o = { ...notes, scaleWindow: 3, delayedShift: 1 };
    // iter0 clean: stable = 0-(-1)-1 = 0 → no growth; iter3: stable 3 → ×2; iter6 → ×2
    expect(run(o, [false, false, false, false, false, false, false])).toEqual([65536, 65536, 65536, 131072, 131072, 131072, 262144]);
    // overflow at iter1 resets the count: growth at iter 1+3+1 = 5
    expect(run(o, [false, true, false, false, false, false])).toEqual([65536, 32768, 32768, 32768, 32768, 65536]);
  });

  it("DynamicLossScaler with release v0.17.0 doubles on the window-th clean iteration ((cur_iter − last_overflow_iter) % window == 0)", () => {
    const o = { ...notes, scaleWindow: 3, delayedShift: 1, release: "v0.17.0" as const };
    // iter2: (2 − (−1)) % 3 = 0 → ×2; iter5 → ×2
    expect(run(o, [false, false, false, false, false, false])).toEqual([65536, 65536, 131072, 131072, 131072, 262144]);
    // overflow at iter1: grows at iter 1 + 3 = 4, the 3rd clean iteration after it
    expect(run(o, [false, true, false, false, false])).toEqual([65536, 32768, 32768, 32768, 65536]);
  });

  it("DynamicLossScaler: in a run of c ≥ 1 clean iterations the scale grows ⌊(c−1)/w⌋ times (current: first on the (w+1)-th, then every w) and ⌊c/w⌋ times (v0.17.0) (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 5 }), (w, c, k) => {
      for (const [release, growths] of [["current", c === 0 ? 0 : Math.floor((c - 1) / w)], ["v0.17.0", Math.floor(c / w)]] as const) {
        // k overflows first (hysteresis 1: each halves), then c clean iterations
        const s = new DynamicLossScaler({ initScale: 2 ** 20, scaleWindow: w, minScale: 1, delayedShift: 1, consecutiveHysteresis: false, release });
        for (let i = 0; i < k; i++) s.updateScale(true);
        for (let i = 0; i < c; i++) s.updateScale(false);
        expect(Math.log2(s.lossScale)).toBe(20 - k + growths);
      }
    }), { seed: 5, numRuns: 150 });
  });

  it("DynamicLossScaler floors at minScale, then throws DeepSpeed's error on the next overflow", () => {
    const o = { ...notes, initScale: 4, minScale: 1.5, delayedShift: 1 };
    const s = new DynamicLossScaler(o);
    s.updateScale(true);
    expect(s.lossScale).toBe(2);
    s.updateScale(true);
    expect(s.lossScale).toBe(1.5); // max(2/2, 1.5)
    expect(() => s.updateScale(true)).toThrow(MIN_SCALE_ERROR);
    const quiet = new DynamicLossScaler({ ...o, initScale: 1.5, raiseErrorAtMinScale: false });
    quiet.updateScale(true);
    expect(quiet.lossScale).toBe(1.5);
  });

  it("dynamicLossScaleUpdate is pure and matches the class", () => {
    const st = { curScale: 8, curIter: 5, lastOverflowIter: 2, curHysteresis: 2 };
    const next = dynamicLossScaleUpdate(st, true, notes);
    expect(st).toEqual({ curScale: 8, curIter: 5, lastOverflowIter: 2, curHysteresis: 2 });
    expect(next).toEqual({ curScale: 8, curIter: 6, lastOverflowIter: 5, curHysteresis: 1 });
  });

  it("DynamicLossScaler rejects a negative window, zero hysteresis, a non-positive minimum", () => {
    expect(() => new DynamicLossScaler({ ...notes, scaleWindow: -5 })).toThrow(/scaleWindow must be an integer >= 1, got -5/);
    expect(() => new DynamicLossScaler({ ...notes, delayedShift: 0 })).toThrow(/hysteresis/);
    expect(() => new DynamicLossScaler({ ...notes, minScale: 0 })).toThrow(/minScale/);
    expect(() => new DynamicLossScaler({ ...notes, scaleFactor: 1 })).toThrow(/scaleFactor/);
    expect(() => new DynamicLossScaler({ ...notes, release: "v0.16" as never })).toThrow(new RangeError("release must be one of current, v0.17.0, got v0.16"));
    expect(() => new LossScaler(0)).toThrow(/scale must be a positive finite number/);
  });

  it("LossScaler (static loss_scale) never changes", () => {
    const s = new LossScaler(128);
    s.updateScale(true);
    expect([s.lossScale, s.scaleLoss(0.5), s.dynamic]).toEqual([128, 64, false]);
  });

  it("DynamicLossScaler: the scale is always a power of two times init (≥ min) and moves by at most ×2 per step (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 80 }), fc.integer({ min: 1, max: 4 }), fc.boolean(), (ovs, hyst, consec) => {
        const s = new DynamicLossScaler({ initScale: 2 ** 10, scaleWindow: 4, minScale: 1, delayedShift: hyst, consecutiveHysteresis: consec, raiseErrorAtMinScale: false });
        let prev = s.lossScale;
        for (const ov of ovs) {
          s.updateScale(ov);
          const r = s.lossScale / prev;
          expect([0.5, 1, 2]).toContain(r);
          if (ov) expect(r).toBeLessThanOrEqual(1);
          expect(Number.isInteger(Math.log2(s.lossScale))).toBe(true);
          expect(s.state.curHysteresis).toBeGreaterThanOrEqual(1);
          prev = s.lossScale;
        }
      }),
      { seed: 11, numRuns: 150 },
    );
  });
});
