import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { matmul, mulberry32, gaussian } from "../nn/index.js";
import { summa2d } from "./summa2d.js";

describe("summa2d", () => {
  it("worked example: [[1, 2], [3, 4]]·[[5, 6], [7, 8]] on a 2 × 2 grid is [[19, 22], [43, 50]]", () => {
    expect([...summa2d(Float32Array.of(1, 2, 3, 4), Float32Array.of(5, 6, 7, 8), 2, 2, 2, 2).C]).toEqual([19, 22, 43, 50]);
  });
  it("equals the plain product within the float32 bound; bytes from the event log are (q−1)(MK + KN)·4 over 2q² broadcasts (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.integer(), (q, a, b, c, seed) => {
      const M = a * q, K = b * q, N = c * q, rng = mulberry32(seed);
      const A = Float32Array.from({ length: M * K }, () => gaussian(rng)), B = Float32Array.from({ length: K * N }, () => gaussian(rng));
      const r = summa2d(A, B, M, K, N, q);
      const plain = matmul(A, B, { M, K, N });
      for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) {
        let s = 0;
        for (let t = 0; t < K; t++) s += Math.abs(A[i * K + t] * B[t * N + j]);
        expect(Math.abs(r.C[i * N + j] - plain[i * N + j])).toBeLessThanOrEqual((K + q + 2) * 2 ** -23 * s + 1e-30);
      }
      expect(r.broadcasts).toBe(2 * q * q);
      expect(r.bytes).toBe((q - 1) * (M * K + K * N) * 4);
      expect(r.elementsPerRank).toBe((M * K + K * N + M * N) / (q * q) + (M * K + K * N) / (q * q));
    }), { numRuns: 40 });
  });
  it("names a size the grid does not divide", () => {
    expect(() => summa2d(new Float32Array(6), new Float32Array(6), 3, 2, 3, 2)).toThrow("M (3) must be divisible by T (2)");
    expect(() => summa2d(new Float32Array(1), new Float32Array(1), 1, 1, 1, 0)).toThrow("q must be an integer >= 1, got 0");
  });
});
