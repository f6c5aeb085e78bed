import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { cpCommPerLayer } from "./cpCommPerLayer.js";
import { contextParallelAttention } from "./contextParallelAttention.js";

const link = { alphaS: 0, bandwidthBytesPerS: 1e9 };
const llama8b = { microBatch: 1, hiddenSize: 4096, numHeads: 32, numKvHeads: 8, cost: link };

describe("cpCommPerLayer", () => {
  it("cpCommPerLayer('ring') is C − 1 blocks of K and V forward, 2C − 1 backward (worked example: 8K tokens on 8 ranks, Llama-3-8B widths)", () => {
    const r = cpCommPerLayer("ring", { ...llama8b, seqLen: 8192, cpSize: 8 });
    const E = 2 * 1024 * 1024; // K and V of 1024 tokens, 8 KV heads of 128
    expect(r).toMatchObject({ scheme: "ring", forwardBytes: 7 * E * 2, backwardBytes: 15 * E * 2, overlapsCompute: true });
    expect(r.forwardTimeS).toBeCloseTo((7 * E * 2) / 1e9, 15);
  });
  it("cpCommPerLayer('ring') equals the bytes the simulated ring sends, forward and backward", () => {
    const dims = { B: 1, H: 4, N: 16, d: 2 };
    const x = new Float32Array(4 * 16 * 2).fill(0.5);
    const fwd = contextParallelAttention(x, x, x, dims, { cpSize: 4, layout: "zigzag", causal: true, bytesPerElement: 2 });
    const both = contextParallelAttention(x, x, x, dims, { cpSize: 4, layout: "zigzag", causal: true, bytesPerElement: 2, dO: x });
    const model = cpCommPerLayer("ring", { seqLen: 16, cpSize: 4, microBatch: 1, hiddenSize: 8, numHeads: 4, numKvHeads: 4, cost: link, bytesPerElement: 2 });
    expect(fwd.bytesSent[0]).toBe(model.forwardBytes);
    expect(both.bytesSent[0]).toBe(model.forwardBytes + model.backwardBytes);
  });
  it("cpCommPerLayer: the all-gather sends what the ring sends (Llama 3 §3.3.2), but cannot overlap; with multi-head attention Ulysses sends 4(C−1)/C²·s·h (Jacobs et al. §3.2: 4Nh/P per link)", () => {
    const ring = cpCommPerLayer("ring", { ...llama8b, seqLen: 65536, cpSize: 8 });
    const ag = cpCommPerLayer("all-gather", { ...llama8b, seqLen: 65536, cpSize: 8 });
    expect(ag.forwardBytes).toBe(ring.forwardBytes);
    expect(ag.backwardBytes).toBe(ring.forwardBytes);
    expect(ag.overlapsCompute).toBe(false);
    const mha = { microBatch: 1, hiddenSize: 4096, numHeads: 32, numKvHeads: 32, cost: link, bytesPerElement: 1 };
    for (const C of [2, 4, 8, 16, 32]) expect(cpCommPerLayer("ulysses", { ...mha, seqLen: 65536, cpSize: C }).forwardBytes).toBeCloseTo((4 * (C - 1) * 65536 * 4096) / (C * C), 0);
  });
  it("cpCommPerLayer: Ulysses' bytes per rank stay flat when s and C grow together, the ring's grow with s (property)", () => {
    fc.assert(fc.property(fc.constantFrom(2, 4), fc.constantFrom(4096, 16384), (C, s) => {
      const u1 = cpCommPerLayer("ulysses", { ...llama8b, seqLen: s, cpSize: C }).forwardBytes;
      const u2 = cpCommPerLayer("ulysses", { ...llama8b, seqLen: 2 * s, cpSize: 2 * C }).forwardBytes;
      expect(u2 / u1).toBeCloseTo((2 * C - 1) / (2 * (C - 1)), 10);
      const r1 = cpCommPerLayer("ring", { ...llama8b, seqLen: s, cpSize: C }).forwardBytes;
      const r2 = cpCommPerLayer("ring", { ...llama8b, seqLen: 2 * s, cpSize: 2 * C }).forwardBytes;
      expect(r2 / r1).toBeCloseTo((2 * C - 1) / (C - 1), 10);
    }), { seed: 1, numRuns: 20 });
  });
  it("cpCommPerLayer: nothing on one rank; Ulysses refuses more ranks than KV heads; bad sizes are named", () => {
    for (const s of ["ring", "all-gather", "ulysses"] as const) expect(cpCommPerLayer(s, { ...llama8b, seqLen: 64, cpSize: 1 })).toMatchObject({ forwardBytes: 0, backwardBytes: 0, forwardTimeS: 0 });
    expect(() => cpCommPerLayer("ulysses", { ...llama8b, seqLen: 4096, cpSize: 16 })).toThrow(/^ulysses needs cpSize \(16\) to divide numKvHeads \(8\)$/);
    expect(() => cpCommPerLayer("ring", { ...llama8b, seqLen: 100, cpSize: 8 })).toThrow(/^seqLen \(100\) must be divisible by cpSize \(8\)$/);
    expect(() => cpCommPerLayer("ring", { ...llama8b, numKvHeads: 3, seqLen: 64, cpSize: 2 })).toThrow(/^numHeads \(32\) must be divisible by numKvHeads \(3\)$/);
    expect(() => cpCommPerLayer("p2p" as never, { ...llama8b, seqLen: 64, cpSize: 2 })).toThrow(/^scheme must be ring, all-gather or ulysses/);
  });
});
