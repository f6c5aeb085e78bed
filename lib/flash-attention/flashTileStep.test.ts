import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { flashTileStep } from "./flashTileStep.js";
import { onlineSoftmaxInit, onlineSoftmaxUpdate } from "./onlineSoftmaxUpdate.js";

describe("flashTileStep", () => {
  it("flashTileStep on the empty state gives the tile's softmax (worked example: one key, O = V)", () => {
    expect(flashTileStep({ Q: [[1]], K: [[0]], V: [[5]], O: [[0]], l: [0], m: [-Infinity], scale: 1 })).toEqual({ O: [[5]], l: [1], m: [0] });
  });
  it("flashTileStep keeps O normalised: two steps equal the online softmax acc/ℓ of the same keys", () => {
    const arb = fc.record({
      Br: fc.integer({ min: 1, max: 4 }), Bc1: fc.integer({ min: 1, max: 5 }), Bc2: fc.integer({ min: 1, max: 5 }), d: fc.integer({ min: 1, max: 4 }), seed: fc.integer(),
    });
    fc.assert(fc.property(arb, ({ Br, Bc1, Bc2, d, seed }) => {
      let x = seed;
      const rnd = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648) * 4 - 2;
      const mat = (r: number) => Array.from({ length: r }, () => Array.from({ length: d }, rnd));
      const Q = mat(Br), K1 = mat(Bc1), V1 = mat(Bc1), K2 = mat(Bc2), V2 = mat(Bc2);
      const keep2 = Array.from({ length: Br }, (_, r) => Array.from({ length: Bc2 }, (_, c) => (r + c) % 3 !== 0));
      const s0 = { O: Q.map(() => new Array(d).fill(0)), l: Q.map(() => 0), m: Q.map(() => -Infinity) };
      const s1 = flashTileStep({ Q, K: K1, V: V1, ...s0, scale: 0.7 });
      const s2 = flashTileStep({ Q, K: K2, V: V2, ...s1, scale: 0.7, keep: keep2 });
      return Q.every((q, r) => {
        const dot = (kk: number[]) => 0.7 * kk.reduce((s, v, i) => s + v * q[i], 0);
        let st = onlineSoftmaxUpdate(onlineSoftmaxInit(d), K1.map(dot), V1);
        st = onlineSoftmaxUpdate(st, K2.map((kk, c) => (keep2[r][c] ? dot(kk) : -Infinity)), V2);
        return Math.abs(s2.m[r] - st.m) < 1e-12 && Math.abs(s2.l[r] - st.l) < 1e-9 && s2.O[r].every((o, i) => Math.abs(o - st.acc[i] / st.l) < 1e-9);
      });
    }), { seed: 4, numRuns: 100 });
  });
  it("flashTileStep leaves a row unchanged when all its keys in the tile are masked", () => {
    const t = { Q: [[1], [2]], K: [[1]], V: [[9]], O: [[0], [3]], l: [0, 2], m: [-Infinity, 1], scale: 1, keep: [[false], [false]] };
    expect(flashTileStep(t)).toEqual({ O: [[0], [3]], l: [0, 2], m: [-Infinity, 1] });
  });
  it("flashTileStep stays finite for logits of ±1e4", () => {
    const r = flashTileStep({ Q: [[100]], K: [[100], [-100]], V: [[1], [2]], O: [[7]], l: [1], m: [-1e4], scale: 1 });
    expect(r.m[0]).toBe(1e4);
    expect(r.O[0][0]).toBe(1); // e^{-2e4} underflows to 0: the old row and key 2 vanish
  });
  it("flashTileStep throws RangeErrors for ragged tiles", () => {
    expect(() => flashTileStep({ Q: [[1]], K: [[1], [2]], V: [[1]], O: [[0]], l: [0], m: [-Infinity], scale: 1 })).toThrow("K must have the same number of rows as V (1), got 2");
    expect(() => flashTileStep({ Q: [[1, 2]], K: [[1]], V: [[1]], O: [[0, 0]], l: [0], m: [-Infinity], scale: 1 })).toThrow("K[0] must have length d = 2, got 1");
  });
});
