import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { linkCostModel } from "../collectives/index.js";
import { contextParallelCommTime, type ContextParallelCommOptions } from "./contextParallelCommTime.js";

const nic = linkCostModel("net-400g");
// Llama 3 405B's 128K stage on one tensor-parallel rank: 64 heads → 8 per rank, 8 KV heads → 1 per rank.
const base: ContextParallelCommOptions = {
  commType: "p2p", seqLen: 131072, contextParallel: 16, microBatch: 1, numHeads: 64, numKvHeads: 8, headDim: 128, tensorParallel: 8,
  bytesPerElement: 2, attentionFlopsPerS: 0.35 * 989.5e12, ringLink: nic, groupLink: nic, layers: 10, fullRecompute: false,
};

describe("contextParallelCommTime", () => {
  it("worked example: 8,192 tokens per rank hide the ring; only the last dK, dV returned to their owner stay exposed", () => {
    const r = contextParallelCommTime(base);
    const blockBytes = 2 * 1 * (131072 / 16) * 1 * 128 * 2; // K and V, s/C tokens, one KV head, d = 128, bf16
    expect(blockBytes).toBe(4194304);
    expect(r.forwardBytesPerLayer).toBe(15 * blockBytes); // C − 1 blocks
    expect(r.exposedS).toBeCloseTo(10 * (nic.alphaS + blockBytes / nic.bandwidthBytesPerS), 12);
    // Hidden: forward (C − 1) blocks and backward (C − 1) double blocks, all under compute.
    expect(r.hiddenS).toBeCloseTo(10 * (15 * (nic.alphaS + blockBytes / nic.bandwidthBytesPerS) + 15 * (nic.alphaS + (2 * blockBytes) / nic.bandwidthBytesPerS)), 9);
  });
  it("all-gather (Llama 3's): nothing hidden; the forward gather and the backward reduce-scatter are exposed", () => {
    const r = contextParallelCommTime({ ...base, commType: "allgather" });
    expect(r.hiddenS).toBe(0);
    expect(r.exposedS).toBeGreaterThan(contextParallelCommTime(base).exposedS);
  });
  it("edge cases: C = 1 costs nothing; a sequence the zig-zag split cannot cut throws", () => {
    expect(contextParallelCommTime({ ...base, contextParallel: 1, seqLen: 4096 })).toEqual({ exposedS: 0, hiddenS: 0, forwardBytesPerLayer: 0, backwardBytesPerLayer: 0 });
    expect(() => contextParallelCommTime({ ...base, seqLen: 100 })).toThrow(RangeError);
  });
  it("a short sequence cannot hide its ring: 256 tokens per rank leave forward sends exposed", () => {
    const short = contextParallelCommTime({ ...base, seqLen: 4096 });
    const returnS = 10 * (nic.alphaS + (2 * 256 * 128 * 2) / nic.bandwidthBytesPerS);
    expect(short.exposedS).toBeGreaterThan(2 * returnS);
  });
  it("property: exposed and hidden ≥ 0; a slower link or full recomputation never exposes less", () => {
    fc.assert(fc.property(fc.constantFrom(2, 4, 8, 16, 32), fc.constantFrom(16384, 32768, 131072), fc.constantFrom("p2p", "allgather" as const), (C, s, commType) => {
      const o = { ...base, contextParallel: C, seqLen: s, commType: commType as "p2p" | "allgather" };
      const r = contextParallelCommTime(o);
      const slow = { ...nic, bandwidthBytesPerS: nic.bandwidthBytesPerS / 4 };
      expect(r.exposedS).toBeGreaterThanOrEqual(0);
      expect(r.hiddenS).toBeGreaterThanOrEqual(0);
      expect(contextParallelCommTime({ ...o, ringLink: slow, groupLink: slow }).exposedS).toBeGreaterThanOrEqual(r.exposedS);
      expect(contextParallelCommTime({ ...o, fullRecompute: true }).exposedS).toBeGreaterThanOrEqual(r.exposedS);
    }), { numRuns: 40 });
  });
});
