import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { matmul, matmulFlops } from "./matmul.js";
import { mulberry32 } from "../random.js";
import { roundTo, type Format } from "./precision.js";

/** The textbook i-j-k loop with the accumulator rounded after every addition: the oracle for the summation order. */
function textbook(a: Float32Array, b: Float32Array, M: number, K: number, N: number, tA: boolean, tB: boolean, acc: Format): Float32Array {
  const c = new Float32Array(M * N);
  for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) {
    let s = 0;
    for (let k = 0; k < K; k++) s = roundTo(acc, s + Math.fround((tA ? a[k * M + i] : a[i * K + k]) * (tB ? b[j * K + k] : b[k * N + j])));
    c[i * N + j] = s;
  }
  return c;
}

function randomMatrix(n: number, seed: number): Float32Array {
  const r = mulberry32(seed);
  return Float32Array.from({ length: n }, () => r() * 2 - 1);
}
function transpose(a: Float32Array, rows: number, cols: number): Float32Array {
  const t = new Float32Array(a.length);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) t[j * rows + i] = a[i * cols + j];
  return t;
}

describe("matmul", () => {
  it("matmul(a, b) computes the 2×2 worked example [[1,2],[3,4]]·[[5,6],[7,8]] = [[19,22],[43,50]]", () => {
    expect(Array.from(matmul(Float32Array.of(1, 2, 3, 4), Float32Array.of(5, 6, 7, 8), { M: 2, K: 2, N: 2 }))).toEqual([19, 22, 43, 50]);
  });
  it("matmul with transA / transB equals matmul of the explicitly transposed arrays", () => {
    const M = 3, K = 5, N = 4, a = randomMatrix(M * K, 1), b = randomMatrix(K * N, 2);
    const ref = matmul(a, b, { M, K, N });
    expect(matmul(transpose(a, M, K), b, { M, K, N, transA: true })).toEqual(ref);
    expect(matmul(a, transpose(b, K, N), { M, K, N, transB: true })).toEqual(ref);
  });
  it("matmul in fp32 accumulation is within K·2^-23·Σ|ab| of the float64 product (Higham's bound)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 6 }), fc.integer(), (M, K, N, seed) => {
      const a = randomMatrix(M * K, seed), b = randomMatrix(K * N, seed + 1);
      const c = matmul(a, b, { M, K, N });
      for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) {
        let s = 0, sa = 0;
        for (let k = 0; k < K; k++) { s += a[i * K + k] * b[k * N + j]; sa += Math.abs(a[i * K + k] * b[k * N + j]); }
        if (Math.abs(c[i * N + j] - s) > (K + 1) * 2 ** -23 * sa) return false;
      }
      return true;
    }), { seed: 11, numRuns: 100 });
  });
  it('matmul with accumulate "fp16" loses small addends that fp32 accumulation keeps', () => {
    // 1 + 4096 × 2^-12: in fp16 (ulp(1) = 2^-10) each 2^-12 addend is below half an ulp and is lost.
    const K = 4097;
    const a = new Float32Array(K).fill(1);
    const b = new Float32Array(K).fill(2 ** -12); b[0] = 1;
    expect(matmul(a, b, { M: 1, K, N: 1 }, "fp32")[0]).toBe(2);
    expect(matmul(a, b, { M: 1, K, N: 1 }, "fp16")[0]).toBe(1);
  });
  it("matmul equals the textbook loop bit for bit in every accumulate format and layout (same summation order)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 6 }), fc.boolean(), fc.boolean(), fc.constantFrom<Format>("fp32", "fp16", "bf16"), fc.integer(), (M, K, N, tA, tB, acc, seed) => {
      const a = randomMatrix(M * K, seed).map((x) => 4 * x), b = randomMatrix(K * N, seed + 7).map((x) => 4 * x);
      const got = matmul(a, b, { M, K, N, transA: tA, transB: tB }, acc), want = textbook(a, b, M, K, N, tA, tB, acc);
      return got.every((v, i) => Object.is(v, want[i]));
    }), { seed: 12, numRuns: 150 });
  });
  it("matmul rejects bad shapes with the field name", () => {
    expect(() => matmul(new Float32Array(4), new Float32Array(4), { M: 0, K: 2, N: 2 })).toThrow(/M must be an integer >= 1, got 0/);
    expect(() => matmul(new Float32Array(3), new Float32Array(4), { M: 2, K: 2, N: 2 })).toThrow(/a must have M·K = 4 elements, got 3/);
  });
  it("matmulFlops is 2·M·K·N", () => {
    expect(matmulFlops({ M: 2, K: 3, N: 4 })).toBe(48);
  });
});
