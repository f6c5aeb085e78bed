import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { compensatedUpdate } from "./compensatedUpdate.js";
import { bf16round } from "./fastRound.js";
import { ulp } from "./ulp.js";
import { trainQuantized } from "./trainQuantized.js";

const f32 = (xs: number[]) => Float32Array.from(xs);

/** Applies `n` updates of `u` from weight `w0`; returns the weight and the carry. */
function repeat(w0: number, u: number, n: number): { w: number; c: number } {
  let w: Float32Array = f32([w0]), c: Float32Array = f32([0]);
  for (let k = 0; k < n; k++) ({ weights: w, carry: c } = compensatedUpdate("bf16", w, f32([u]), c));
  return { w: w[0]!, c: c[0]! };
}

describe("compensatedUpdate(format, weights, update, carry)", () => {
  it("worked example: an update of 2^-10 to a bf16 weight of 1 (spacing 2^-7) is carried, and four of them move the weight by 2^-8… to the even neighbour", () => {
    const r = compensatedUpdate("bf16", f32([1]), f32([2 ** -10]), f32([0]));
    expect(Array.from(r.weights)).toEqual([1]);
    expect(Array.from(r.carry)).toEqual([2 ** -10]);
    expect(repeat(1, 2 ** -10, 4)).toEqual({ w: 1, c: 2 ** -8 }); // 1 + 2^-8 is a tie: the weight stays at the even 1
    expect(repeat(1, 2 ** -10, 8)).toEqual({ w: 1 + 2 ** -7, c: 0 });
  });
  it("ten updates of 0.001 from 1 end at 1 + 2^-7, the bf16 value nearest to 1.01 (rounding alone stays at 1)", () => {
    expect(repeat(1, Math.fround(0.001), 10).w).toBe(1.0078125);
    expect(bf16round(1 + Math.fround(0.001))).toBe(1);
  });
  it("edge cases: empty tensors, overflow and NaN leave a zero carry, lengths are checked", () => {
    expect(compensatedUpdate("bf16", f32([]), f32([]), f32([]))).toEqual({ weights: f32([]), carry: f32([]) });
    const max = 3.3895313892515355e38;
    const r = compensatedUpdate("bf16", f32([max, 1]), f32([max, NaN]), f32([0, 0]));
    expect(Array.from(r.weights)).toEqual([Infinity, NaN]);
    expect(Array.from(r.carry)).toEqual([0, 0]);
    expect(() => compensatedUpdate("bf16", f32([1, 2]), f32([1]), f32([0, 0]))).toThrow(/^update has 1 values but weights has 2$/);
    expect(() => compensatedUpdate("bf16", f32([1]), f32([1]), f32([]))).toThrow(/^carry has 0 values but weights has 1$/);
  });
  it("property: the weight is the bf16 value nearest to w + u + c, and w' + c' keeps that sum to within half a spacing of c'", () => {
    const row = fc.tuple(fc.integer({ min: -20, max: 20 }), fc.integer({ min: 1, max: 255 }), fc.integer({ min: -(2 ** 20), max: 2 ** 20 }), fc.integer({ min: -(2 ** 19), max: 2 ** 19 }));
    fc.assert(fc.property(fc.array(row, { minLength: 1, maxLength: 8 }), (rows) => {
      const w = f32(rows.map(([e, m]) => bf16round((m / 128) * 2 ** e)));
      const u = f32(rows.map(([, , x], i) => x * 2 ** -20 * w[i]!));
      const c = f32(rows.map(([, , , y], i) => bf16round(y * 2 ** -20 * ulp("bf16", w[i]!))));
      const r = compensatedUpdate("bf16", w, u, c);
      rows.forEach((_, i) => {
        const exact = w[i]! + u[i]! + c[i]!; // exact in float64 for these magnitudes
        expect(r.weights[i]).toBe(bf16round(exact));
        expect(Math.abs(r.weights[i]! - exact + r.carry[i]!)).toBeLessThanOrEqual(ulp("bf16", r.carry[i]!) / 2);
      });
    }), { numRuns: 300, seed: 11 });
  });
  it("oracle: 60 steps of bf16 training without a master copy stay within 0.5 % of the fp32-master run's weights; rounding alone drifts past 1 %", () => {
    const run = { format: "bf16" as const, steps: 60, model: { width: 16, hiddenDim: 32, numBlocks: 1 }, batchSize: 4, seqLen: 8, lr: 3e-3 };
    const master = trainQuantized(run).weights;
    const distance = (ws: Float32Array[]) => {
      let d = 0, n = 0;
      ws.forEach((w, p) => w.forEach((x, i) => { d += (x - master[p]![i]!) ** 2; n += master[p]![i]! ** 2; }));
      return Math.sqrt(d / n);
    };
    const carried = trainQuantized({ ...run, masterWeights: false, weightUpdate: (w, u, c) => compensatedUpdate("bf16", w, u, c) });
    const rounded = trainQuantized({ ...run, masterWeights: false });
    expect(distance(carried.weights)).toBeLessThan(0.005);
    expect(distance(rounded.weights)).toBeGreaterThan(0.01);
    expect(carried.weights.every((w) => w.every((x) => bf16round(x) === x))).toBe(true);
  });
  it("trainQuantized refuses a weight update that keeps more than 16 bits per weight", () => {
    const fp32Carry = (w: Float32Array, u: Float32Array, c: Float32Array) => ({ weights: Float32Array.from(w, (x, i) => bf16round(x + u[i]! + c[i]!)), carry: Float32Array.from(u, (x) => x / 3) });
    expect(() => trainQuantized({ format: "bf16", steps: 1, model: { width: 8, hiddenDim: 8, numBlocks: 1 }, masterWeights: false, weightUpdate: fp32Carry }))
      .toThrow(/^weightUpdate must return \{weights, carry\}, two Float32Arrays of \d+ values of bf16: carry\[\d+\] = .* is not a bf16 value$/);
  });
});
