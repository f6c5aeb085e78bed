import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { ringStepByRuns, type CausalKernel } from "./ringStepByRuns.js";
import { blockAttention } from "./blockAttention.js";
import { mergeAttentionPartials } from "./mergeAttentionPartials.js";
import { sequenceShards, CP_LAYOUTS } from "./sequenceShards.js";
import { referenceAttention } from "../flash-attention/referenceAttention.js";
import { randomTensor } from "../flash-attention/randomTensor.js";
import { maxAbsDiff } from "../flash-attention/maxAbsDiff.js";

/** The kernel as a test double: chapter 10's reference attention, counting its calls. */
function cpuKernel(): CausalKernel & { calls: number } {
  const f = (async (q, k, v, shape, o) => { f.calls++; const r = referenceAttention(q, k, v, shape, o); return { O: r.O, lse: r.lse }; }) as CausalKernel & { calls: number };
  f.calls = 0;
  return f;
}

describe("ringStepByRuns", () => {
  it("ringStepByRuns on a zig-zag block makes one call per visible pair of chunks (worked example: rank 0 holding rank 1's block)", async () => {
    const dims = { B: 1, H: 1, nq: 4, nk: 4, d: 2 };
    const q = randomTensor(8, 1), k = randomTensor(8, 2), v = randomTensor(8, 3);
    const prev = { O: new Float32Array(8), lse: new Float32Array(4).fill(-Infinity) };
    const kern = cpuKernel();
    const got = await ringStepByRuns(kern, q, k, v, dims, [0, 1, 6, 7], [2, 3, 4, 5], prev, { causal: true });
    const want = mergeAttentionPartials(prev, blockAttention(q, k, v, dims, [0, 1, 6, 7], [2, 3, 4, 5], { causal: true }));
    expect(maxAbsDiff(got.O, want.O)).toBeLessThanOrEqual(1e-6);
    expect(Array.from(got.lse.subarray(0, 2))).toEqual([-Infinity, -Infinity]);
    expect(kern.calls).toBe(1); // chunk 0…1 sees nothing, chunk 6…7 sees 2…5 in one call
  });
  it("ringStepByRuns equals blockAttention then mergeAttentionPartials for every layout's blocks, causal or not (property)", async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(1, 2, 3, 4), fc.constantFrom(...CP_LAYOUTS), fc.boolean(), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 1e5 }), async (C, layout, causal, d, seed) => {
      const n = 4, shards = sequenceShards(n * C, C, layout), dims = { B: 1, H: 2, nq: n, nk: n, d };
      const q = randomTensor(2 * n * d, seed, 2), k = randomTensor(2 * n * d, seed + 1, 2), v = randomTensor(2 * n * d, seed + 2);
      const prev = { O: randomTensor(2 * n * d, seed + 3), lse: Float32Array.from({ length: 2 * n }, (_, i) => (i % 3 ? i / 3 : -Infinity)) };
      for (const r of [0, C - 1]) for (const owner of [0, C - 1]) {
        const got = await ringStepByRuns(cpuKernel(), q, k, v, dims, shards[r], shards[owner], prev, { causal });
        const want = mergeAttentionPartials(prev, blockAttention(q, k, v, dims, shards[r], shards[owner], { causal }));
        expect(maxAbsDiff(got.O, want.O)).toBeLessThanOrEqual(1e-6);
        expect(got.lse.every((x, i) => x === want.lse[i] || Math.abs(x - want.lse[i]) <= 1e-6)).toBe(true);
      }
    }), { seed: 29, numRuns: 40 });
  });
  it("ringStepByRuns refuses overlapping runs that are not one causal triangle", async () => {
    const dims = { B: 1, H: 1, nq: 2, nk: 2, d: 1 };
    const prev = { O: new Float32Array(2), lse: new Float32Array(2).fill(-Infinity) };
    await expect(ringStepByRuns(cpuKernel(), new Float32Array(2), new Float32Array(2), new Float32Array(2), dims, [2, 3], [3, 4], prev, { causal: true })).rejects.toThrow(/^query positions 2…3 and key positions 3…4 overlap without being the same run/);
  });
});
