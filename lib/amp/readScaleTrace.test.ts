import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { readScaleTrace } from "./readScaleTrace.js";
import { updateScale } from "./updateScale.js";

/** A trace from updateScale: the scales before every step and after the last, from tracker `t0`. */
function trace(init: number, t0: number, infs: boolean[], o: { growthFactor: number; backoffFactor: number; growthInterval: number }): number[] {
  let s = { scale: init, growthTracker: t0 };
  const out = [s.scale];
  for (const inf of infs) { s = updateScale(s.scale, s.growthTracker, inf, o); out.push(s.scale); }
  return out;
}

describe("readScaleTrace(scales, fromStart)", () => {
  it("worked example: a skip at step 2, growth every 2 clean steps", () => {
    expect(readScaleTrace([65536, 65536, 131072, 65536, 65536, 131072], true)).toEqual({ skipped: [2], growthFactor: 2, backoffFactor: 0.5, growthInterval: 2 });
  });
  it("mid-run, the first growth only bounds the interval: it is read from a growth after a skip", () => {
    const o = { growthFactor: 2, backoffFactor: 0.5, growthInterval: 3 };
    const t = trace(1024, 2, [false, false, false, true, false, false, false], o); // grows at step 0 (tracker 2 → 3)
    expect(readScaleTrace(t, false)).toEqual({ skipped: [3], growthFactor: 2, backoffFactor: 0.5, growthInterval: 3 });
    expect(readScaleTrace(t.slice(0, 4), false)).toEqual({ skipped: [], growthFactor: 2, backoffFactor: null, growthInterval: null });
  });
  it("edge cases: no step, a growth float32 cannot hold, a trace that disagrees with itself, bad scales", () => {
    expect(readScaleTrace([65536], true)).toEqual({ skipped: [], growthFactor: null, backoffFactor: null, growthInterval: null });
    const top = trace(2 ** 126, 0, [false, false, false, false], { growthFactor: 2, backoffFactor: 0.5, growthInterval: 1 });
    expect(top).toEqual([2 ** 126, 2 ** 127, 2 ** 127, 2 ** 127, 2 ** 127]); // 2^128 is Infinity in float32: the scale stays
    expect(readScaleTrace(top, true)).toEqual({ skipped: [], growthFactor: 2, backoffFactor: null, growthInterval: 1 });
    expect(() => readScaleTrace([8, 4, 1], true)).toThrow(/^not a GradScaler trace: backoffFactor 0.5 before step 1, 0.25 at it$/);
    expect(() => readScaleTrace([8, 0], true)).toThrow(/^scales\[1\] must be a positive finite number, got 0$/);
  });
  it("property: on traces made by updateScale from the start, it finds the skipped steps, the factors seen and the interval", () => {
    const arb = fc.record({ g: fc.constantFrom(2, 4), b: fc.constantFrom(0.5, 0.25, 0.125), n: fc.integer({ min: 1, max: 6 }), infs: fc.array(fc.boolean(), { maxLength: 40 }) });
    fc.assert(fc.property(arb, ({ g, b, n, infs }) => {
      const r = readScaleTrace(trace(2 ** 16, 0, infs, { growthFactor: g, backoffFactor: b, growthInterval: n }), true);
      expect(r.skipped).toEqual(infs.flatMap((x, i) => (x ? [i] : [])));
      if (r.backoffFactor !== null) expect(r.backoffFactor).toBe(b);
      if (r.growthFactor !== null) { expect(r.growthFactor).toBe(g); expect(r.growthInterval).toBe(n); }
    }), { numRuns: 300, seed: 19 });
  });
});
