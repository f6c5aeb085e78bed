import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { matmul, mulberry32, gaussian } from "../nn/index.js";
import { summa25d } from "./summa25d.js";
import { summa2d } from "./summa2d.js";

describe("summa25d (Colossal-AI 2.5D forward on q × q × d ranks)", () => {
  it("worked example: d = 2 layers of a 1 × 1 grid multiply one row each", () => {
    expect([...summa25d(Float32Array.of(1, 2, 3, 4), Float32Array.of(5, 6, 7, 8), 2, 2, 2, 1, 2).C]).toEqual([19, 22, 43, 50]);
  });
  it("equals the plain product; traffic (q−1)(M·K + d·K·N) elements; activations 1/(d·q²), weights 1/q² per rank (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 2 }), fc.integer(), (q, d, b, c, seed) => {
      const M = q * d * 2, K = b * q, N = c * q, rng = mulberry32(seed);
      const X = Float32Array.from({ length: M * K }, () => gaussian(rng)), W = Float32Array.from({ length: K * N }, () => gaussian(rng));
      const r = summa25d(X, W, M, K, N, q, d);
      const plain = matmul(X, W, { M, K, N }), scale = matmul(X.map(Math.abs), W.map(Math.abs), { M, K, N });
      for (let i = 0; i < plain.length; i++) expect(Math.abs(r.C[i] - plain[i])).toBeLessThanOrEqual((K + q + 2) * 2 ** -23 * scale[i] + 1e-30);
      expect(r.bytes).toBe((q - 1) * (M * K + d * K * N) * 4);
      expect(r.broadcasts).toBe(2 * q * q * d);
      expect(r.elementsPerRank).toBe((M * K / d + K * N + M * N / d) / (q * q) + (M * K / d + K * N) / (q * q));
      if (d === 1) expect(r.bytes).toBe(summa2d(X, W, M, K, N, q).bytes); // d = 1 is 2D
    }), { numRuns: 30 });
  });
  it("names a size or depth that does not fit", () => {
    expect(() => summa25d(new Float32Array(12), new Float32Array(4), 6, 2, 2, 2, 2)).toThrow("M (6) must be divisible by T (4)");
    expect(() => summa25d(new Float32Array(4), new Float32Array(4), 2, 2, 2, 1, 0)).toThrow("d must be an integer >= 1, got 0");
  });
});
