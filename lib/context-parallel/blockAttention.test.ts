import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { blockAttention, blockAttentionBackward, positionMask } from "./blockAttention.js";
import { referenceAttention } from "../flash-attention/referenceAttention.js";
import { referenceAttentionBackward } from "../flash-attention/referenceAttentionBackward.js";
import { randomTensor } from "../flash-attention/randomTensor.js";
import { maxAbsDiff } from "../flash-attention/maxAbsDiff.js";

describe("positionMask", () => {
  it("positionMask keeps key j for query i when kPos[j] ≤ qPos[i] (worked example) and within a document", () => {
    expect(Array.from(positionMask([2, 3], [0, 3], { causal: true }))).toEqual([1, 0, 1, 1]);
    expect(Array.from(positionMask([2, 3], [0, 3]))).toEqual([1, 1, 1, 1]);
    // documents [0, 0, 1, 1]: query 2 starts document 1 and sees only itself
    expect(Array.from(positionMask([2, 3], [0, 2, 3], { causal: true, docIds: [0, 0, 1, 1] }))).toEqual([0, 1, 0, 0, 1, 1]);
    expect(() => positionMask([9], [0], { docIds: [0, 0] })).toThrow(/^docIds has no entry for position 9$/);
  });
});

describe("blockAttention", () => {
  it("blockAttention is chapter 10's worked example when the block holds both keys", () => {
    const r = blockAttention(Float32Array.of(1), Float32Array.of(0, Math.log(3)), Float32Array.of(4, 8), { B: 1, H: 1, nq: 1, nk: 2, d: 1 }, [5], [0, 1], { scale: 1 });
    expect(r.O[0]).toBeCloseTo(7, 6);
    expect(r.lse[0]).toBeCloseTo(Math.log(4), 6);
  });
  it("blockAttention gives O = 0 and lse = −∞ to a row whose keys in the block are all in its future", () => {
    const r = blockAttention(Float32Array.of(1, 1), Float32Array.of(1, 2), Float32Array.of(3, 4), { B: 1, H: 1, nq: 2, nk: 2, d: 1 }, [0, 5], [1, 2], { causal: true });
    expect(r.O[0]).toBe(0);
    expect(r.lse[0]).toBe(-Infinity);
    expect(Number.isFinite(r.lse[1])).toBe(true);
    expect(() => blockAttention(Float32Array.of(1), Float32Array.of(1), Float32Array.of(1), { B: 1, H: 1, nq: 1, nk: 1, d: 1 }, [0, 1], [0])).toThrow(/^qPos must have nq = 1 positions, got 2$/);
  });
  it("blockAttentionBackward over any split of the keys, with the merged O and lse, sums to the full gradient (oracle: referenceAttentionBackward)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 2, max: 8 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 7 }), fc.integer({ min: 0, max: 1e6 }), (nq, nk, d, cut, seed) => {
      const split = Math.min(cut, nk - 1);
      const q = randomTensor(2 * nq * d, seed, 2), k = randomTensor(2 * nk * d, seed + 1, 2), v = randomTensor(2 * nk * d, seed + 2), dO = randomTensor(2 * nq * d, seed + 3);
      const qPos = Array.from({ length: nq }, (_, i) => nk - nq + i + (i % 2)); // some rows see every key, some not
      const kPos = Array.from({ length: nk }, (_, j) => j);
      const mask = positionMask(qPos, kPos, { causal: true });
      const shape = { B: 1, H: 2, Nq: nq, Nk: nk, d };
      const fwd = referenceAttention(q, k, v, shape, { mask });
      const want = referenceAttentionBackward(q, k, v, dO, shape, { mask });
      // key block [0, split) and [split, nk), per head: (B, H, nk, d) slices
      const sliceK = (x: Float32Array, a: number, b: number) => Float32Array.from([0, 1].flatMap((h) => Array.from(x.subarray((h * nk + a) * d, (h * nk + b) * d))));
      const parts = [[0, split], [split, nk]].map(([a, b]) => blockAttentionBackward(q, sliceK(k, a, b), sliceK(v, a, b), fwd.O, dO, fwd.lse, { B: 1, H: 2, nq, nk: b - a, d }, qPos, kPos.slice(a, b), { causal: true }));
      const dQ = parts[0].dQ.map((x, i) => x + parts[1].dQ[i]);
      expect(maxAbsDiff(dQ, want.dQ)).toBeLessThanOrEqual(1e-5);
      const joinHeads = (a: Float32Array, b: Float32Array, na: number, nb: number) => Float32Array.from([0, 1].flatMap((h) => [...a.subarray(h * na * d, (h + 1) * na * d), ...b.subarray(h * nb * d, (h + 1) * nb * d)]));
      expect(maxAbsDiff(joinHeads(parts[0].dK, parts[1].dK, split, nk - split), want.dK)).toBeLessThanOrEqual(1e-5);
      expect(maxAbsDiff(joinHeads(parts[0].dV, parts[1].dV, split, nk - split), want.dV)).toBeLessThanOrEqual(1e-5);
    }), { seed: 5, numRuns: 60 });
  });
});
