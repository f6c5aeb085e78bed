import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { GRAD_SCALER_DEFAULTS, updateScale } from "./updateScale.js";

const opts = { growthFactor: 2, backoffFactor: 0.5, growthInterval: 3 };

describe("updateScale", () => {
  it("updateScale(...) has PyTorch's defaults: 2^16, ×2, ×0.5, every 2000 steps", () => {
    expect(GRAD_SCALER_DEFAULTS).toEqual({ initScale: 65536, growthFactor: 2, backoffFactor: 0.5, growthInterval: 2000 });
  });

  it("updateScale(scale, tracker, false) grows on the growthInterval-th consecutive clean step (trace, interval 3)", () => {
    // Hand trace of _amp_update_scale_: successful = tracker + 1; grow when it equals the interval.
    let s = { scale: 1024, growthTracker: 0 };
    const trace: [number, number][] = [];
    for (const inf of [false, false, false, false, true, false, false, false]) {
      s = updateScale(s.scale, s.growthTracker, inf, opts);
      trace.push([s.scale, s.growthTracker]);
    }
    expect(trace).toEqual([[1024, 1], [1024, 2], [2048, 0], [2048, 1], [1024, 0], [1024, 1], [1024, 2], [2048, 0]]);
  });

  it("updateScale(scale, tracker, true) backs off and resets the tracker", () => {
    expect(updateScale(65536, 1999, true, GRAD_SCALER_DEFAULTS)).toEqual({ scale: 32768, growthTracker: 0 });
    expect(updateScale(65536, 1999, false, GRAD_SCALER_DEFAULTS)).toEqual({ scale: 131072, growthTracker: 0 });
  });

  it("updateScale keeps the scale in float32 and never grows it to Infinity", () => {
    const max = 2 ** 127; // largest power of two below float32's max
    expect(updateScale(max, 2, false, opts)).toEqual({ scale: max, growthTracker: 0 });
    // a non-power-of-two factor is rounded to float32 like PyTorch's float tensor
    expect(updateScale(1, 0, true, { ...opts, backoffFactor: 0.1 }).scale).toBe(Math.fround(0.1));
    expect(updateScale(1, 0, true, { ...opts, backoffFactor: 0.1 }).scale).not.toBe(0.1);
  });

  it("updateScale rejects bad options and state with messages naming the field", () => {
    expect(() => updateScale(1, 0, false, { ...opts, growthFactor: 1 })).toThrow(/growthFactor must be a finite number > 1, got 1/);
    expect(() => updateScale(1, 0, false, { ...opts, backoffFactor: 1 })).toThrow(/backoffFactor must be in \(0, 1\), got 1/);
    expect(() => updateScale(1, 0, false, { ...opts, backoffFactor: 0 })).toThrow(/backoffFactor/);
    expect(() => updateScale(1, 0, false, { ...opts, growthInterval: -1 })).toThrow(/growthInterval must be an integer >= 1, got -1/);
    expect(() => updateScale(NaN, 0, false, opts)).toThrow(/scale must be a positive finite number, got NaN/);
    expect(() => updateScale(1, 0.5, false, opts)).toThrow(/growthTracker must be an integer >= 0/);
  });

  it("updateScale: after any inf/clean sequence, scale = init·2^growths·2^-backoffs and tracker < interval (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 60 }), fc.integer({ min: 1, max: 5 }), (infs, interval) => {
        let s = { scale: 2 ** 20, growthTracker: 0 };
        let log2 = 20;
        let run = 0;
        for (const inf of infs) {
          s = updateScale(s.scale, s.growthTracker, inf, { growthFactor: 2, backoffFactor: 0.5, growthInterval: interval });
          if (inf) { log2 -= 1; run = 0; } else if (++run === interval) { log2 += 1; run = 0; }
          expect(s.growthTracker).toBe(run);
        }
        expect(s.scale).toBe(2 ** log2);
      }),
      { seed: 4, numRuns: 200 },
    );
  });
});
