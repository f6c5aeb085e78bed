import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { matmul, mulberry32, gaussian } from "../nn/index.js";
import { linear3d } from "./linear3d.js";

const rand = (n: number, rng: () => number) => Float32Array.from({ length: n }, () => gaussian(rng));
/** Σ_k |a_ik·b_kj|: the scale of a float32 re-association error. */
function absProduct(a: Float32Array, b: Float32Array, M: number, K: number, N: number): Float32Array {
  return matmul(a.map(Math.abs), b.map(Math.abs), { M, K, N });
}

describe("linear3d (Colossal-AI _Linear3D on q³ simulated ranks)", () => {
  it("q = 1 is the plain layer, with no traffic (worked example)", () => {
    const r = linear3d(Float32Array.of(1, 2), Float32Array.of(3, 4), Float32Array.of(1), 1, 2, 1, 1);
    expect([...r.Y]).toEqual([11]);
    expect([...r.dX]).toEqual([3, 4]);
    expect([...r.dA]).toEqual([1, 2]);
    expect(r.bytes).toEqual({ forward: 0, backward: 0 });
  });

  it("Y, dX and dA equal the plain products within the float32 re-association bound; traffic is (q−1)(N·in + in·out + N·out) elements per pass (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 3 }), fc.integer(), (q, a, b, c, seed) => {
      const N = a * q * q, inF = b * q * q, outF = c * q, rng = mulberry32(seed);
      const X = rand(N * inF, rng), A = rand(inF * outF, rng), dY = rand(N * outF, rng);
      const r = linear3d(X, A, dY, N, inF, outF, q);
      const check = (got: Float32Array, want: Float32Array, scale: Float32Array, K: number) => {
        for (let i = 0; i < want.length; i++) expect(Math.abs(got[i] - want[i])).toBeLessThanOrEqual((K + q + 2) * 2 ** -23 * scale[i] + 1e-30);
      };
      check(r.Y, matmul(X, A, { M: N, K: inF, N: outF }), absProduct(X, A, N, inF, outF), inF);
      check(r.dX, matmul(dY, A, { M: N, K: outF, N: inF, transB: true }), matmul(dY.map(Math.abs), A.map(Math.abs), { M: N, K: outF, N: inF, transB: true }), outF);
      check(r.dA, matmul(X, dY, { M: inF, K: N, N: outF, transA: true }), matmul(X.map(Math.abs), dY.map(Math.abs), { M: inF, K: N, N: outF, transA: true }), N);
      const perPass = (q - 1) * (N * inF + inF * outF + N * outF) * 4;
      expect(r.bytes).toEqual({ forward: perPass, backward: perPass });
      expect(r.collectives).toEqual({ forward: 3, backward: 3 });
      expect(r.elementsPerRank).toBe((N * inF + inF * outF + N * outF) / q ** 3);
    }), { numRuns: 25 });
  });

  it("names a size the cube does not divide", () => {
    expect(() => linear3d(new Float32Array(12), new Float32Array(16), new Float32Array(6), 6, 2, 2, 2)).toThrow("N (6) must be divisible by T (4)");
    expect(() => linear3d(new Float32Array(1), new Float32Array(1), new Float32Array(1), 1, 1, 1, 0)).toThrow("q must be an integer >= 1, got 0");
    expect(() => linear3d(new Float32Array(7), new Float32Array(16), new Float32Array(8), 4, 2, 4, 1)).toThrow("X must have N·in = 8 elements, got 7");
  });
});
