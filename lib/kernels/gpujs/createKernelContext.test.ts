import { afterAll, describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { createKernelContext, type KernelSpec } from "./createKernelContext.js";
import { matmul } from "../../nn/matmul.js";

type T = { thread: { x: number; y: number }; constants: { K4: number } };
const add = (): KernelSpec => ({
  body: function (this: T, a: number[][], b: number[][]) {
    const x = a[this.thread.x], y = b[this.thread.x];
    return [x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3]];
  } as never,
  argumentTypes: { a: "Array1D(4)", b: "Array1D(4)" },
});

const contexts = [createKernelContext(), createKernelContext("cpu")];
afterAll(() => contexts.forEach((c) => c.destroy()));

describe("createKernelContext", () => {
  it("createKernelContext(mode).kernel(…).run adds two arrays four values per thread, ragged tail included", () => {
    for (const ctx of contexts) {
      expect(Array.from(ctx.kernel("add", add).run([Float32Array.of(1, 2, 3, 4, 5), Float32Array.of(1, 1, 1, 1, 1)], 5))).toEqual([2, 3, 4, 5, 6]);
    }
  });

  it("createKernelContext(mode).kernel compiles once per key and output size", () => {
    const ctx = createKernelContext("cpu");
    try {
      const k = ctx.kernel("add", add);
      k.run([Float32Array.of(1, 2, 3, 4), Float32Array.of(1, 2, 3, 4)], 4);
      k.run([Float32Array.of(5, 6, 7, 8), Float32Array.of(1, 2, 3, 4)], 4);
      expect(ctx.kernel("add", add)).toBe(k);
      expect(ctx.compiled).toBe(1);
      k.run([new Float32Array(9), new Float32Array(9)], 9); // 3 texels: a second kernel
      expect(ctx.compiled).toBe(2);
    } finally {
      ctx.destroy();
    }
  });

  it("createKernelContext maps gpu.js's webasm backend (no Array1D(4) arguments) to cpu and rejects unknown modes", () => {
    const ctx = createKernelContext("webasm");
    expect(ctx.backend).toBe("cpu");
    ctx.destroy();
    expect(() => createKernelContext("dev" as never)).toThrow('mode must be one of gpu, webgl2, webgl, headlessgl, webasm, cpu, got "dev"');
  });

  it("a 2-D kernel's output comes back row-major: a 4-wide matmul equals the plain loop (oracle) on random shapes", () => {
    const mm = (): KernelSpec => ({
      body: function (this: T, a: number[][], b: number[][]) {
        let s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
        for (let kq = 0; kq < this.constants.K4; kq++) {
          const av = a[this.thread.y * this.constants.K4 + kq];
          for (let t = 0; t < 4; t++) {
            const bv = b[4 * kq + t];
            s0 += av[t] * bv[0]; s1 += av[t] * bv[1]; s2 += av[t] * bv[2]; s3 += av[t] * bv[3];
          }
        }
        return [s0, s1, s2, s3];
      } as never,
      argumentTypes: { a: "Array1D(4)", b: "Array1D(4)" },
    });
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 3 }), fc.integer(), (M, K4, seed) => {
      const K = 4 * K4;
      const a = Float32Array.from({ length: M * K }, (_, i) => ((i * 7 + seed) % 11) - 5), b = Float32Array.from({ length: K * 4 }, (_, i) => ((i * 3 + seed) % 5) - 2);
      for (const ctx of contexts) {
        const c = ctx.kernel(`mm ${K4}`, () => ({ ...mm(), constants: { K4 } })).run([a, b], M * 4, [1, M]);
        expect(Array.from(c)).toEqual(Array.from(matmul(a, b, { M, K, N: 4 }))); // small integers: exact in float32
      }
    }), { numRuns: 20, seed: 3 });
  });
});
