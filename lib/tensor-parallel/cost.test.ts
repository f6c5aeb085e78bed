import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { tpCommPerLayer, tpTimePerLayer, NVLINK_A100 } from "./cost.js";
import { collectiveCost } from "../collectives/index.js";
import { mulberry32 } from "../nn/index.js";
import { TpComm } from "./comm.js";
import { tensorParallelAttentionBackward, tensorParallelAttentionForward } from "./tensorParallelAttention.js";

describe("tpCommPerLayer", () => {
  it("worked example: 4 tokens × h 2, T = 2, fp32: two all-reduces each way of 2·1·8·4 = 64 bytes", () => {
    expect(tpCommPerLayer({ tokens: 4, hiddenSize: 2, T: 2, bytesPerElement: 4 })).toEqual([
      { pass: "forward", collective: "all-reduce", count: 2, elements: 8, bytesTotal: 128, bytesPerRank: 64 },
      { pass: "backward", collective: "all-reduce", count: 2, elements: 8, bytesTotal: 128, bytesPerRank: 64 },
    ]);
  });
  it("per rank, each all-reduce sends 2(T−1)/T·n·b bytes, as lib/collectives' ring cost; sequence parallelism's forward sends the same (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 16 }), fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 64 }), (T, k, h) => {
      const tokens = k * T, n = tokens * h;
      const plain = tpCommPerLayer({ tokens, hiddenSize: h, T, bytesPerElement: 2 });
      expect(plain[0].bytesTotal).toBe(2 * collectiveCost("ring-all-reduce", n, T, NVLINK_A100, 2).totalBytes);
      const sp = tpCommPerLayer({ tokens, hiddenSize: h, T, sequenceParallel: true, bytesPerElement: 2 });
      const fwd = (r: typeof sp) => r.filter((x) => x.pass === "forward").reduce((s, x) => s + x.bytesPerRank, 0);
      expect(fwd(sp)).toBeCloseTo(fwd(plain), 6);
      // backward: one extra all-gather per region (Megatron re-gathers the sharded input for dW)
      const bwd = (r: typeof sp) => r.filter((x) => x.pass === "backward").reduce((s, x) => s + x.bytesTotal, 0);
      expect(bwd(sp) - bwd(plain)).toBe(2 * (T - 1) * n * 2);
    }));
  });
  it("T > G adds Megatron's QKV all-gather forward and reduce-scatter backward of (N, (a + 2G)·d); the simulated attention's event log sends exactly those bytes", () => {
    const attention = { numHeads: 8, numKvHeads: 2, headDim: 2 };
    const rows = tpCommPerLayer({ tokens: 6, hiddenSize: 5, T: 8, bytesPerElement: 4, attention });
    const qkv = rows.filter((r) => r.tensor === "qkv");
    expect(qkv.map((r) => `${r.pass} ${r.collective} ${r.elements}`)).toEqual(["forward all-gather 144", "backward reduce-scatter 144"]); // 6·(8 + 4)·2
    const rng = mulberry32(5), rnd = (n: number) => Float32Array.from({ length: n }, () => rng() - 0.5);
    const s = { batch: 2, seqLen: 3, hiddenSize: 5, ...attention };
    const w = { Wq: rnd(5 * 16), Wk: rnd(5 * 4), Wv: rnd(5 * 4), Wo: rnd(16 * 5) };
    const comm = new TpComm(8, undefined, 4);
    tensorParallelAttentionForward(comm, rnd(30), w, s);
    tensorParallelAttentionBackward(comm, rnd(30), w, s, rnd(30));
    const logged = comm.log.filter((l) => l.op === "qkv-gather").map((l) => l.bytes);
    expect(logged).toEqual(qkv.map((r) => r.bytesTotal));
    expect(tpCommPerLayer({ tokens: 6, hiddenSize: 5, T: 2, attention }).some((r) => r.tensor === "qkv")).toBe(false); // T ≤ G: none
  });
  it("T = 1 communicates nothing; bad input names the field", () => {
    expect(tpCommPerLayer({ tokens: 3, hiddenSize: 2, T: 1 })).toEqual([]);
    expect(() => tpCommPerLayer({ tokens: 0, hiddenSize: 2, T: 1 })).toThrow("tokens must be an integer >= 1, got 0");
    expect(() => tpCommPerLayer({ tokens: 3, hiddenSize: 2, T: 2, sequenceParallel: true })).toThrow("tokens (3) must be divisible by T (2) with sequence parallelism");
    expect(() => tpCommPerLayer({ tokens: 3, hiddenSize: 2, T: 2, attention: { numHeads: 2, numKvHeads: 0, headDim: 1 } })).toThrow("attention.numKvHeads must be an integer >= 1, got 0");
  });
});

describe("tpTimePerLayer", () => {
  // Llama-2-70B's layer (h 8192, 64 heads, 8 KV heads, SwiGLU 28672) at s = 4096, b = 1, on DGX A100 nodes.
  const base = { seqLen: 4096, microBatch: 1, hiddenSize: 8192, numHeads: 64, numKvHeads: 8, intermediateSize: 28672, gated: true };
  it("T = 1 has no communication; its compute is the layer on the A100's roofline, above the 312 TFLOP/s lower bound", () => {
    const r = tpTimePerLayer({ ...base, T: 1 });
    expect(r.commS).toBe(0);
    expect(r.perGpuEfficiency).toBeCloseTo(1, 12);
    const flops = 3 * (2 * 4096 * (8192 * (64 + 16) * 128 + 8192 * 8192 + 3 * 8192 * 28672)) + 3.5 * (4 * 4096 ** 2 * 8192) / 2; // GEMMs ×3, flash 1 + 2.5
    expect(r.computeS).toBeGreaterThan(flops / 312e12);
    expect(r.computeS).toBeLessThan(flops / (0.5 * 312e12));
  });
  it("the backward all-reduces hide behind the weight-gradient GEMMs as far as those last; before August 2021 all four were exposed", () => {
    const on = tpTimePerLayer({ ...base, T: 8 }), off = tpTimePerLayer({ ...base, T: 8, tpBackwardOverlap: false });
    expect(on.hiddenS).toBeGreaterThan(0);
    expect(on.commS + on.hiddenS).toBeCloseTo(off.commS, 12);
    expect(on.commS).toBeGreaterThanOrEqual(off.commS / 2); // the two forward ones stay exposed
    expect(on.commS).toBeLessThan(off.commS);
  });
  it("across two nodes the ring runs over the node's 8 adapters: T = 16 is faster per layer than T = 8, but each GPU does less useful work", () => {
    const t8 = tpTimePerLayer({ ...base, T: 8 }), t16 = tpTimePerLayer({ ...base, T: 16 });
    expect(t8.crossesNodes).toBe(false);
    expect(t16.crossesNodes).toBe(true);
    expect(t16.totalS).toBeLessThan(t8.totalS);
    expect(t16.perGpuEfficiency).toBeLessThan(t8.perGpuEfficiency);
    // The link: min(NVLink 300 × 0.8, 8 × 25 GB/s × 0.96) = 192 GB/s, one all-reduce of 4096 × 8192 bf16;
    // T = 16 exceeds the 8 KV heads, so Megatron also all-gathers the QKV activation, (64 + 16)·128 wide, and reduce-scatters its gradient.
    const link = { alphaS: 5e-6, bandwidthBytesPerS: 192e9 };
    const one = collectiveCost("ring-all-reduce", 4096 * 8192, 16, link, 2).timeS;
    const qkv = collectiveCost("all-gather", 4096 * 80 * 128, 16, link, 2).timeS + collectiveCost("reduce-scatter", 4096 * 80 * 128, 16, link, 2).timeS;
    expect(t16.commS).toBeGreaterThanOrEqual((2 * one + qkv) * (1 - 1e-12)); // exposed: the forward all-reduces, the QKV pair, what dW cannot hide
    expect(t16.commS + t16.hiddenS).toBeCloseTo(4 * one + qkv, 9);
  });
  it("property: per-GPU efficiency never rises with T inside a node (compute shrinks, communication does not)", () => {
    fc.assert(fc.property(fc.constantFrom(1024, 2048, 4096), fc.constantFrom(1, 2, 4), (s, b) => {
      const eff = [1, 2, 4, 8].map((T) => tpTimePerLayer({ ...base, seqLen: s, microBatch: b, T }).perGpuEfficiency);
      for (let i = 1; i < eff.length; i++) expect(eff[i]).toBeLessThanOrEqual(eff[i - 1] + 1e-12);
    }), { numRuns: 9 });
  });
  it("names the bad field", () => {
    expect(() => tpTimePerLayer({ ...base, seqLen: 0, T: 1 })).toThrow("seqLen must be an integer >= 1, got 0");
    expect(() => tpTimePerLayer({ ...base, T: 2, gpusPerNode: 0 })).toThrow("gpusPerNode must be an integer >= 1, got 0");
    expect(() => tpTimePerLayer({ ...base, T: 3 })).toThrow("numHeads (64) must be divisible by tensorParallel (3)");
  });
});
