import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { allGatherAttention } from "./allGatherAttention.js";
import { contextParallelAttention } from "./contextParallelAttention.js";
import { sequenceShards, CP_LAYOUTS } from "./sequenceShards.js";
import { shardSequence, gatherSequence } from "./shardSequence.js";
import { positionMask } from "./blockAttention.js";
import { referenceAttention } from "../flash-attention/referenceAttention.js";
import { referenceAttentionBackward } from "../flash-attention/referenceAttentionBackward.js";
import { randomTensor } from "../flash-attention/randomTensor.js";
import { maxAbsDiff } from "../flash-attention/maxAbsDiff.js";

describe("allGatherAttention", () => {
  it("allGatherAttention equals one device with a causal document mask, forward and backward (property), and sends what the ring sends forward", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 4 }), fc.constantFrom(...CP_LAYOUTS), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 1e6 }), (C, layout, numDocs, seed) => {
      const N = 4 * C, d = 2, dims = { B: 1, H: 2, N, d }, len = 2 * N * d;
      const q = randomTensor(len, seed, 2), k = randomTensor(len, seed + 1, 2), v = randomTensor(len, seed + 2), dO = randomTensor(len, seed + 3);
      const docIds = Array.from({ length: N }, (_, i) => Math.floor((i * numDocs) / N));
      const all = Array.from({ length: N }, (_, i) => i);
      const mask = positionMask(all, all, { causal: true, docIds });
      const shape = { B: 1, H: 2, Nq: N, Nk: N, d };
      const fwd = referenceAttention(q, k, v, shape, { mask }), bwd = referenceAttentionBackward(q, k, v, dO, shape, { mask });
      const shards = sequenceShards(N, C, layout);
      const part = (x: Float32Array, p: number[]) => shardSequence(x, dims, p);
      const r = allGatherAttention(shards.map((p) => ({ q: part(q, p), k: part(k, p), v: part(v, p), dO: part(dO, p), positions: p })), { B: 1, H: 2, n: N / C, d }, { causal: true, docIds });
      const gather = (key: "O" | "dq" | "dk" | "dv") => gatherSequence(r.results.map((x) => x[key]!), dims, shards);
      expect(maxAbsDiff(gather("O"), fwd.O)).toBeLessThanOrEqual(2e-5);
      expect(maxAbsDiff(gather("dq"), bwd.dQ)).toBeLessThanOrEqual(2e-5);
      expect(maxAbsDiff(gather("dk"), bwd.dK)).toBeLessThanOrEqual(2e-5);
      expect(maxAbsDiff(gather("dv"), bwd.dV)).toBeLessThanOrEqual(2e-5);
      const ring = contextParallelAttention(q, k, v, dims, { cpSize: C, layout, causal: true, docIds });
      const forwardBytes = r.events.filter((e) => e.kind === "all-gather").reduce((s, e) => s + (e.sender === 0 ? e.bytes : 0), 0);
      expect(forwardBytes).toBe(ring.bytesSent[0]);
    }), { seed: 17, numRuns: 40 });
  });
  it("allGatherAttention on one rank communicates nothing; dO on some shards only is an error", () => {
    const s = { q: Float32Array.of(1), k: Float32Array.of(1), v: Float32Array.of(2), positions: [0] };
    const r = allGatherAttention([s], { B: 1, H: 1, n: 1, d: 1 });
    expect(r.results[0].O).toEqual(Float32Array.of(2));
    expect(r.bytesSent).toEqual([0]);
    expect(() => allGatherAttention([{ ...s, dO: Float32Array.of(1) }, { ...s, positions: [1] }], { B: 1, H: 1, n: 1, d: 1 })).toThrow(/^dO must be given for every shard or for none$/);
  });
});
