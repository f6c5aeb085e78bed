import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { accumulationError, matmulPrecision } from "./matmulPrecision.js";

describe("matmulPrecision", () => {
  it("matmulPrecision computes a small product exactly when every value is representable", () => {
    const c = matmulPrecision(Float32Array.of(1, 2, 3, 4, 5, 6), Float32Array.of(1, 0, 0, 1, 1, 1), 2, 3, 2, { precision: "fp16" });
    expect([...c]).toEqual([4, 5, 10, 11]); // [[1,2,3],[4,5,6]] · [[1,0],[0,1],[1,1]]
  });

  it("matmulPrecision with fp16 accumulation stagnates: 2048 plus 64 ones stays 2048", () => {
    // 2048 + 1 + 1 + … in fp16: at 2048 the ulp is 2, so each +1 is a tie that rounds to even (2048)
    const k = 65;
    const a = Float32Array.from({ length: k }, (_, i) => (i === 0 ? 2048 : 1));
    const b = new Float32Array(k).fill(1);
    expect(matmulPrecision(a, b, 1, k, 1, { precision: "fp16", accumulate: "low" })[0]).toBe(2048);
    expect(matmulPrecision(a, b, 1, k, 1, { precision: "fp16", accumulate: "fp32" })[0]).toBe(2112);
  });

  it("matmulPrecision in fp32 agrees with a float64 reference within K·2^-24·Σ|a·b| (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 4 }), fc.integer(), (m, k, n, seed) => {
        let s = seed >>> 0;
        const r = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
        const a = Float32Array.from({ length: m * k }, r);
        const b = Float32Array.from({ length: k * n }, r);
        const c = matmulPrecision(a, b, m, k, n, { precision: "fp32" });
        for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) {
          let ref = 0, abs = 0;
          for (let p = 0; p < k; p++) { ref += a[i * k + p]! * b[p * n + j]!; abs += Math.abs(a[i * k + p]! * b[p * n + j]!); }
          expect(Math.abs(c[i * n + j]! - ref)).toBeLessThanOrEqual((k + 1) * 2 ** -24 * abs + 1e-30);
        }
      }),
      { seed: 12, numRuns: 100 },
    );
  });

  it("accumulationError: fp16 accumulation error grows with K, fp32 accumulation stays near fp16's input rounding", () => {
    const [small, large] = accumulationError([16, 4096], { trials: 4 });
    expect(large!.lowAccumulate).toBeGreaterThan(10 * large!.fp32Accumulate);
    expect(large!.lowAccumulate).toBeGreaterThan(small!.lowAccumulate);
    expect(large!.fp32Accumulate).toBeLessThan(2 ** -11); // one fp16 rounding of the result
  });

  it("matmulPrecision rejects inconsistent shapes", () => {
    expect(() => matmulPrecision(new Float32Array(5), new Float32Array(6), 2, 3, 2, { precision: "fp16" })).toThrow(/a must have m·k = 6 elements, got 5/);
    expect(() => matmulPrecision(new Float32Array(0), new Float32Array(0), 0, 3, 2, { precision: "fp16" })).toThrow(/m must be an integer >= 1, got 0/);
  });
});
