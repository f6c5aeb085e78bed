import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { ringForwardOnKernel } from "./ringForwardOnKernel.js";
import type { CausalKernel } from "./ringStepByRuns.js";
import { CP_LAYOUTS } from "./sequenceShards.js";
import { referenceAttention } from "../flash-attention/referenceAttention.js";
import { randomTensor } from "../flash-attention/randomTensor.js";
import { maxAbsDiff } from "../flash-attention/maxAbsDiff.js";

const cpuKernel: CausalKernel = async (q, k, v, shape, o) => { const r = referenceAttention(q, k, v, shape, o); return { O: r.O, lse: r.lse }; };

describe("ringForwardOnKernel", () => {
  it("ringForwardOnKernel equals one device for every layout and C, causal or not, through a causal-or-nothing kernel (property)", async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(1, 2, 4), fc.constantFrom(...CP_LAYOUTS), fc.boolean(), fc.integer({ min: 0, max: 1e5 }), async (C, layout, causal, seed) => {
      const N = 4 * C, d = 3, dims = { B: 1, H: 2, N, d }, len = 2 * N * d;
      const q = randomTensor(len, seed, 2), k = randomTensor(len, seed + 1, 2), v = randomTensor(len, seed + 2);
      const ref = referenceAttention(q, k, v, { B: 1, H: 2, Nq: N, Nk: N, d }, causal ? { causal: "top-left" } : {});
      const got = await ringForwardOnKernel(cpuKernel, q, k, v, dims, { cpSize: C, layout, causal });
      expect(maxAbsDiff(got.O, ref.O)).toBeLessThanOrEqual(2e-6);
      expect(maxAbsDiff(got.lse, ref.lse)).toBeLessThanOrEqual(2e-6);
    }), { seed: 37, numRuns: 30 });
  });
  it("ringForwardOnKernel rejects a sequence the layout cannot split", async () => {
    await expect(ringForwardOnKernel(cpuKernel, new Float32Array(6), new Float32Array(6), new Float32Array(6), { B: 1, H: 1, N: 6, d: 1 }, { cpSize: 2, layout: "zigzag" })).rejects.toThrow(/divisible by 2·cpSize/);
  });
});
