import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { logsumexp } from "./logsumexp.js";
import { onlineSoftmaxFinalize, onlineSoftmaxInit, onlineSoftmaxUpdate } from "./onlineSoftmaxUpdate.js";

function softmaxRow(scores: number[], values: number[][]): { o: number[]; lse: number } {
  const lse = logsumexp(scores);
  const d = values[0]?.length ?? 1;
  if (lse === -Infinity) return { o: new Array(d).fill(0), lse };
  return { o: Array.from({ length: d }, (_, x) => scores.reduce((s, sc, k) => s + Math.exp(sc - lse) * values[k][x], 0)), lse };
}

describe("onlineSoftmaxUpdate", () => {
  it("onlineSoftmaxUpdate rescales the old sum and accumulator when the max grows (worked example)", () => {
    const s1 = onlineSoftmaxUpdate(onlineSoftmaxInit(1), [0], [[4]]); // m 0, ℓ 1, acc 4
    const s2 = onlineSoftmaxUpdate(s1, [Math.log(3)], [[8]]); // m ln3, ℓ = 1/3 + 1, acc = 4/3 + 8
    expect(s2.m).toBeCloseTo(Math.log(3), 15);
    expect(s2.l).toBeCloseTo(4 / 3, 14);
    expect(s2.acc[0]).toBeCloseTo(4 / 3 + 8, 13);
    expect(onlineSoftmaxFinalize(s2).o[0]).toBeCloseTo(7, 13); // = (1·4 + 3·8)/4
  });
  it("onlineSoftmaxUpdate over any split into blocks equals the softmax of the whole row, even at ±1e4 and with masked scores", () => {
    const score = fc.oneof(fc.double({ min: -30, max: 30, noNaN: true }), fc.constantFrom(1e4, -1e4, -Infinity));
    fc.assert(fc.property(fc.array(fc.tuple(score, fc.double({ min: -1, max: 1, noNaN: true })), { minLength: 1, maxLength: 24 }), fc.integer({ min: 1, max: 7 }), (row, b) => {
      let st = onlineSoftmaxInit(1);
      for (let k = 0; k < row.length; k += b) {
        const blk = row.slice(k, k + b);
        st = onlineSoftmaxUpdate(st, blk.map((r) => r[0]), blk.map((r) => [r[1]]));
      }
      const got = onlineSoftmaxFinalize(st);
      const want = softmaxRow(row.map((r) => r[0]), row.map((r) => [r[1]]));
      if (want.lse === -Infinity) return got.lse === -Infinity && got.o[0] === 0;
      return Math.abs(got.o[0] - want.o[0]) <= 1e-12 && Math.abs(got.lse - want.lse) <= 1e-12 * (1 + Math.abs(want.lse));
    }), { seed: 9, numRuns: 300 });
  });
  it("onlineSoftmaxUpdate leaves the state unchanged for a fully masked or empty block (no NaN)", () => {
    const s = onlineSoftmaxUpdate(onlineSoftmaxInit(2), [-Infinity, -Infinity], [[1, 2], [3, 4]]);
    expect(s).toEqual({ m: -Infinity, l: 0, acc: [0, 0] });
    expect(onlineSoftmaxFinalize(s)).toEqual({ o: [0, 0], lse: -Infinity });
    expect(onlineSoftmaxUpdate({ m: 1, l: 2, acc: [3] }, [], [])).toEqual({ m: 1, l: 2, acc: [3] });
  });
  it("onlineSoftmaxUpdate throws RangeErrors for mismatched values", () => {
    expect(() => onlineSoftmaxUpdate(onlineSoftmaxInit(1), [0, 1], [[1]])).toThrow("values must have one row per score (2), got 1");
    expect(() => onlineSoftmaxUpdate(onlineSoftmaxInit(3), [0], [[1, 2]])).toThrow("values[0] must have length d = 3, got 2");
    expect(() => onlineSoftmaxInit(0)).toThrow("d must be an integer >= 1, got 0");
  });
});
