import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { ringAttention } from "./ringAttention.js";
import { createRing } from "./createRing.js";
import { contextParallelAttention } from "./contextParallelAttention.js";
import { CP_LAYOUTS } from "./sequenceShards.js";
import { referenceAttention } from "../flash-attention/referenceAttention.js";
import { referenceAttentionBackward } from "../flash-attention/referenceAttentionBackward.js";
import { randomTensor } from "../flash-attention/randomTensor.js";
import { maxAbsDiff } from "../flash-attention/maxAbsDiff.js";

const TOL = 2e-5;

function oneDevice(q: Float32Array, k: Float32Array, v: Float32Array, dO: Float32Array, dims: { B: number; H: number; N: number; d: number }, causal: boolean, docIds?: number[]) {
  const shape = { B: dims.B, H: dims.H, Nq: dims.N, Nk: dims.N, d: dims.d };
  const mask = docIds ? Uint8Array.from({ length: dims.N * dims.N }, (_, x) => { const i = Math.floor(x / dims.N), j = x % dims.N; return (!causal || j <= i) && docIds[i] === docIds[j] ? 1 : 0; }) : undefined;
  const o = { ...(causal && !mask ? { causal: "top-left" as const } : {}), ...(mask ? { mask } : {}) };
  return { fwd: referenceAttention(q, k, v, shape, o), bwd: referenceAttentionBackward(q, k, v, dO, shape, o) };
}

describe("ringAttention", () => {
  it("ringAttention on 2 ranks equals one device on a 4-token causal sequence, forward and backward (worked example)", () => {
    const dims = { B: 1, H: 1, N: 4, d: 2 };
    const q = randomTensor(8, 1), k = randomTensor(8, 2), v = randomTensor(8, 3), dO = randomTensor(8, 4);
    const { fwd, bwd } = oneDevice(q, k, v, dO, dims, true);
    const r = contextParallelAttention(q, k, v, dims, { cpSize: 2, layout: "zigzag", causal: true, dO });
    expect(maxAbsDiff(r.O, fwd.O)).toBeLessThanOrEqual(TOL);
    expect(maxAbsDiff(r.lse, fwd.lse)).toBeLessThanOrEqual(TOL);
    for (const g of ["dQ", "dK", "dV"] as const) expect(maxAbsDiff(r[g]!, bwd[g])).toBeLessThanOrEqual(TOL);
  });
  it("ringAttention equals one device for every layout, C, causal or not and document masks (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 3 }), fc.constantFrom(...CP_LAYOUTS), fc.boolean(), fc.boolean(), fc.integer({ min: 0, max: 1e6 }), (C, k2, B, d, layout, causal, docs, seed) => {
      const dims = { B, H: 2, N: 2 * C * k2, d };
      const len = B * 2 * dims.N * d;
      const q = randomTensor(len, seed, 2), k = randomTensor(len, seed + 1, 2), v = randomTensor(len, seed + 2), dO = randomTensor(len, seed + 3);
      const docIds = docs ? Array.from({ length: dims.N }, (_, i) => Math.floor((i * 3) / dims.N)) : undefined;
      const { fwd, bwd } = oneDevice(q, k, v, dO, dims, causal, docIds);
      const r = contextParallelAttention(q, k, v, dims, { cpSize: C, layout, causal, docIds, dO });
      expect(maxAbsDiff(r.O, fwd.O)).toBeLessThanOrEqual(TOL);
      for (const g of ["dQ", "dK", "dV"] as const) expect(maxAbsDiff(r[g]!, bwd[g])).toBeLessThanOrEqual(TOL);
    }), { seed: 31, numRuns: 60 });
  });
  it("ringAttention sends C − 1 blocks of K and V forward, C − 1 of K, V and C of dK, dV backward, always to the next rank", () => {
    const dims = { B: 2, H: 2, N: 16, d: 3 }, C = 4, blk = 2 * 2 * 2 * 4 * 3; // K and V of one rank: 2·B·H·n·d
    const x = randomTensor(2 * 2 * 16 * 3, 9);
    const fwdOnly = contextParallelAttention(x, x, x, dims, { cpSize: C, layout: "striped", causal: true });
    expect(fwdOnly.numSteps).toBe(C - 1);
    expect(fwdOnly.events.every((e) => e.length === blk && e.offset === 0 && e.receiver === (e.sender + 1) % C)).toBe(true);
    expect(fwdOnly.bytesSent).toEqual(new Array(C).fill((C - 1) * blk * 4));
    const both = contextParallelAttention(x, x, x, dims, { cpSize: C, layout: "striped", causal: true, dO: x });
    expect(both.bytesSent).toEqual(new Array(C).fill((C - 1 + C - 1 + C) * blk * 4));
  });
  it("ringAttention rejects a wrong number of shards, wrong lengths and dO on some shards only", () => {
    const s = { q: new Float32Array(2), k: new Float32Array(2), v: new Float32Array(2), positions: [0, 1] };
    const dims = { B: 1, H: 1, n: 2, d: 1 };
    expect(() => ringAttention(createRing(2), [s], dims)).toThrow(/^shards must hold one shard per rank \(cpSize = 2\), got 1$/);
    expect(() => ringAttention(createRing(1), [{ ...s, k: new Float32Array(3) }], dims)).toThrow(/^shards\[0\]\.k must have length 2 \(B·H·n·d\), got 3$/);
    expect(() => ringAttention(createRing(2), [{ ...s, dO: new Float32Array(2) }, { ...s, positions: [2, 3] }], dims)).toThrow(/^dO must be given for every shard or for none$/);
    expect(() => ringAttention(createRing(2), [s, s], dims)).toThrow(/appears twice/);
  });
});
