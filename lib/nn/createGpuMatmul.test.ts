import { afterAll, describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { createGpuMatmul } from "./createGpuMatmul.js";
import { matmul } from "./matmul.js";
import { mulberry32 } from "../random.js";
import { createModel, forward, backward } from "./model.js";
import { sampleBatch } from "./sampler.js";
import { corpus } from "./train.js";
import { zeroGrad, flatGrad } from "./param.js";
import { FP32 } from "./precision.js";

const kernels = [createGpuMatmul(), createGpuMatmul("cpu")];
afterAll(() => kernels.forEach((k) => k.destroy()));

function randomMatrix(n: number, seed: number): Float32Array {
  const r = mulberry32(seed);
  return Float32Array.from({ length: n }, () => r() * 2 - 1);
}

describe("createGpuMatmul", () => {
  it("createGpuMatmul().matmul computes the 2×2 worked example", () => {
    for (const k of kernels) expect(Array.from(k.matmul(Float32Array.of(1, 2, 3, 4), Float32Array.of(5, 6, 7, 8), { M: 2, K: 2, N: 2 }, "fp32"))).toEqual([19, 22, 43, 50]);
  });
  it("createGpuMatmul().matmul equals the CPU matmul within K·2^-23·Σ|ab| on random shapes and layouts", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 33 }), fc.integer({ min: 1, max: 9 }), fc.boolean(), fc.boolean(), fc.integer(), (M, K, N, transA, transB, seed) => {
      const a = randomMatrix(M * K, seed), b = randomMatrix(K * N, seed ^ 0x55);
      const shape = { M, K, N, transA, transB };
      const ref = matmul(a, b, shape);
      for (const k of kernels) {
        const c = k.matmul(a, b, shape, "fp32");
        for (let i = 0; i < M * N; i++) {
          const row = Math.floor(i / N), col = i % N;
          let sa = 0;
          for (let t = 0; t < K; t++) sa += Math.abs((transA ? a[t * M + row] : a[row * K + t]) * (transB ? b[col * K + t] : b[t * N + col]));
          if (!(Math.abs(c[i] - ref[i]) <= 2 * K * 2 ** -23 * sa)) return false;
        }
      }
      return true;
    }), { seed: 5, numRuns: 40 });
  });
  it("createGpuMatmul().matmul refuses low-precision accumulation and bad shapes", () => {
    expect(() => kernels[0].matmul(new Float32Array(1), new Float32Array(1), { M: 1, K: 1, N: 1 }, "fp16")).toThrow(/accumulate must be "fp32"/);
    expect(() => kernels[0].matmul(new Float32Array(2), new Float32Array(1), { M: 1, K: 1, N: 1 }, "fp32")).toThrow(/a must have M·K = 1 elements, got 2/);
  });
  it("forward and backward with the gpu.js matmul give the CPU loss and gradients within float32 tolerance", () => {
    const { vocab, tokens } = corpus();
    const m = createModel({ vocabSize: vocab.size, contextLength: 4, embedDim: 4, width: 16, hiddenDim: 16, numBlocks: 1, seed: 1 });
    const batch = sampleBatch(tokens, { batchSize: 2, seqLen: 8, contextLength: 4 }, mulberry32(1));
    zeroGrad(m.params); const f1 = forward(m, batch); backward(m, f1); const g1 = flatGrad(m.params);
    const ops = { precision: FP32, matmul: kernels[0].matmul };
    zeroGrad(m.params); const f2 = forward(m, batch, ops); backward(m, f2, 1 / f2.tokenCount, ops); const g2 = flatGrad(m.params);
    expect(Math.abs(f1.loss - f2.loss)).toBeLessThan(1e-5 * f1.loss);
    let maxErr = 0, maxG = 0;
    g1.forEach((g, i) => { maxErr = Math.max(maxErr, Math.abs(g - g2[i])); maxG = Math.max(maxG, Math.abs(g)); });
    expect(maxErr).toBeLessThan(1e-5 * maxG);
  });
});
