import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { createRingBlockKernel, runRingAttentionKernel } from "./ringBlockKernel.js";
import { blockAttention } from "./blockAttention.js";
import { mergeAttentionPartials } from "./mergeAttentionPartials.js";
import { CP_LAYOUTS } from "./sequenceShards.js";
import { createGpu } from "../flash-attention/flashAttentionKernel.js";
import { referenceAttention } from "../flash-attention/referenceAttention.js";
import { randomTensor } from "../flash-attention/randomTensor.js";
import { maxAbsDiff } from "../flash-attention/maxAbsDiff.js";

const TOL = 2e-5;
const lseClose = (a: Float32Array, b: Float32Array) => a.every((x, i) => x === b[i] || Math.abs(x - b[i]) <= TOL * (1 + Math.abs(b[i])));

describe("createRingBlockKernel", () => {
  it("createRingBlockKernel's step equals blockAttention then mergeAttentionPartials, empty rows and −∞ included (worked example)", () => {
    const gpu = createGpu("cpu");
    try {
      const dims = { B: 1, H: 2, nq: 3, nk: 2, d: 5 };
      const q = randomTensor(30, 1, 2), k = randomTensor(20, 2, 2), v = randomTensor(20, 3);
      const qPos = [0, 4, 9], kPos = [3, 5]; // query 0 sees nothing in this block
      const prev = { O: randomTensor(30, 4), lse: Float32Array.of(-Infinity, 0.5, 2, -Infinity, -1, 3) };
      const want = mergeAttentionPartials(prev, blockAttention(q, k, v, dims, qPos, kPos, { causal: true }));
      const kern = createRingBlockKernel(gpu, dims, { causal: true });
      const got = kern.run(q, k, v, qPos, kPos, prev);
      kern.destroy();
      expect(maxAbsDiff(got.O, want.O)).toBeLessThanOrEqual(TOL);
      expect(lseClose(got.lse, want.lse)).toBe(true);
      expect(got.lse[0]).toBe(-Infinity);
      expect(Array.from(got.O.subarray(0, 5))).toEqual([0, 0, 0, 0, 0]);
    } finally {
      gpu.destroy();
    }
  });
  it("runRingAttentionKernel equals one device for every layout, C and d (property, gpu.js's default backend in Node)", () => {
    fc.assert(fc.property(fc.constantFrom(1, 2, 4), fc.constantFrom(...CP_LAYOUTS), fc.integer({ min: 1, max: 9 }), fc.boolean(), fc.integer({ min: 0, max: 1e5 }), (C, layout, d, causal, seed) => {
      const dims = { B: 1, H: 2, N: 4 * C, d }, len = 2 * 4 * C * d;
      const q = randomTensor(len, seed, 2), k = randomTensor(len, seed + 1, 2), v = randomTensor(len, seed + 2);
      const ref = referenceAttention(q, k, v, { B: 1, H: 2, Nq: dims.N, Nk: dims.N, d }, causal ? { causal: "top-left" } : {});
      const got = runRingAttentionKernel(q, k, v, dims, { cpSize: C, layout, causal });
      expect(maxAbsDiff(got.O, ref.O)).toBeLessThanOrEqual(TOL);
      expect(lseClose(got.lse, ref.lse)).toBe(true);
    }), { seed: 23, numRuns: 12 });
  });
  it("createRingBlockKernel rejects bad sizes and inputs of the wrong length", () => {
    const gpu = createGpu("cpu");
    try {
      expect(() => createRingBlockKernel(gpu, { B: 1, H: 1, nq: 0, nk: 1, d: 1 })).toThrow(/^nq must be an integer >= 1, got 0$/);
      const kern = createRingBlockKernel(gpu, { B: 1, H: 1, nq: 2, nk: 1, d: 4 });
      expect(() => kern.run(new Float32Array(7), new Float32Array(4), new Float32Array(4), [0, 1], [0], { O: new Float32Array(8), lse: new Float32Array(2) })).toThrow(/^q must have length 8 \(B·H·Nq·d\), got 7$/);
      kern.destroy();
    } finally {
      gpu.destroy();
    }
  });
});
