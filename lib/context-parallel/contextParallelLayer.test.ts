import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { contextParallelLayer } from "./contextParallelLayer.js";
import { CP_LAYOUTS } from "./sequenceShards.js";
import { selfAttention, cpuOps, mulberry32, linear } from "../nn/index.js";
import { randomTensor } from "../flash-attention/randomTensor.js";
import { maxAbsDiff } from "../flash-attention/maxAbsDiff.js";

/** One device's layer and a CP copy of it with the same weights, on the same x and dy. */
function pair(ctx: number, d: number, rows: number, cpSize: number, layout: (typeof CP_LAYOUTS)[number], seed: number) {
  const one = selfAttention("attn", ctx, d, mulberry32(seed));
  const copy = selfAttention("attn", ctx, d, mulberry32(seed));
  const cp = contextParallelLayer(copy, { cpSize, layout });
  const x = { data: randomTensor(rows * ctx * d, seed + 1), rows, cols: ctx * d };
  const dy = { data: randomTensor(rows * ctx * d, seed + 2), rows, cols: ctx * d };
  const ops = cpuOps();
  const a = one.forward(x, ops), b = cp.forward(x, ops);
  const dxa = one.backward(a.saved, dy, ops)!, dxb = cp.backward(b.saved, dy, ops)!;
  return { one, cp, a, b, dxa, dxb };
}

describe("contextParallelLayer", () => {
  it("contextParallelLayer gives lib/nn's attention output, input gradient and weight gradients on 2 ranks (worked example)", () => {
    const { one, cp, a, b, dxa, dxb } = pair(8, 4, 3, 2, "zigzag", 1);
    expect(maxAbsDiff(b.y.data, a.y.data)).toBeLessThanOrEqual(1e-5);
    expect(maxAbsDiff(dxb.data, dxa.data)).toBeLessThanOrEqual(1e-5);
    one.params.forEach((p, i) => expect(maxAbsDiff(cp.params[i].grad, p.grad)).toBeLessThanOrEqual(1e-5));
    // communication: the backward ring (recomputed forward: 1 step; K, V: 1; dK, dV: 2) and one all-reduce of 4 d² gradients
    expect(cp.lastRing!.numSteps).toBe(4);
    expect(cp.lastGradAllReduce!.bytesSentPerRank).toEqual([4 * 16 * 4, 4 * 16 * 4]); // 2(P−1)/P · 4d² floats
  });
  it("contextParallelLayer equals one device for every layout and C dividing the window (property)", () => {
    fc.assert(fc.property(fc.constantFrom(1, 2, 4), fc.constantFrom(...CP_LAYOUTS), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 1e5 }), (C, layout, d, rows, seed) => {
      const { one, cp, a, b, dxa, dxb } = pair(8, d, rows, C, layout, seed);
      expect(maxAbsDiff(b.y.data, a.y.data)).toBeLessThanOrEqual(1e-5);
      expect(maxAbsDiff(dxb.data, dxa.data)).toBeLessThanOrEqual(1e-5);
      one.params.forEach((p, i) => expect(maxAbsDiff(cp.params[i].grad, p.grad)).toBeLessThanOrEqual(1e-5));
    }), { seed: 11, numRuns: 30 });
  });
  it("contextParallelLayer refuses another kind of layer, and a window the layout cannot split", () => {
    expect(() => contextParallelLayer(linear("l", 4, 4, mulberry32(1)), { cpSize: 2, layout: "zigzag" })).toThrow(/^layer must be a self-attention layer, got linear$/);
    const cp = contextParallelLayer(selfAttention("attn", 8, 2, mulberry32(1)), { cpSize: 8, layout: "zigzag" });
    expect(() => cp.forward({ data: new Float32Array(16), rows: 1, cols: 16 }, cpuOps())).toThrow(/^seqLen \(8\) must be divisible by 2·cpSize \(16\) for the zigzag layout$/);
  });
});
