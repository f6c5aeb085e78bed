import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { mulberry32, gaussian } from "../nn/index.js";
import { TpComm } from "./comm.js";
import { attentionBackward, attentionForward } from "./attention.js";
import { validTensorParallelSizes } from "./config.js";
import { fusedQkvWidth, unfuseQkv } from "./fusedQkv.js";
import { concatColumns, splitRows } from "./shard.js";
import { tensorParallelAttentionBackward, tensorParallelAttentionForward } from "./tensorParallelAttention.js";

const rand = (n: number, rng: () => number) => Float32Array.from({ length: n }, () => gaussian(rng) * 0.5);
const setup = (a: number, G: number, batch: number, S: number, seed: number, d = 2, h = 5) => {
  const rng = mulberry32(seed), s = { batch, seqLen: S, hiddenSize: h, numHeads: a, numKvHeads: G, headDim: d };
  const w = { Wq: rand(h * a * d, rng), Wk: rand(h * G * d, rng), Wv: rand(h * G * d, rng), Wo: rand(a * d * h, rng) };
  return { s, w, x: rand(batch * S * h, rng), dy: rand(batch * S * h, rng) };
};
/** Every T the course's rule accepts for this attention (FFN not involved). */
const validT = (a: number, G: number, d: number) => validTensorParallelSizes({ numHeads: a, numKvHeads: G, hiddenSize: a * d, headDim: d, ffnHiddenSize: 840 }, a);

describe("tensorParallelAttentionForward (Megatron's split, fused QKV)", () => {
  it("8 query heads, 2 KV heads on T = 8: one all-gather of the (N, (a + 2G)·d) QKV activation, then g (worked example)", () => {
    const { s, w, x } = setup(8, 2, 2, 3, 7);
    const comm = new TpComm(8);
    const ys = tensorParallelAttentionForward(comm, x, w, s);
    expect(comm.log.map((l) => `${l.pass} ${l.collective} ${l.op} ${l.elements}`)).toEqual([`forward all-gather qkv-gather ${6 * fusedQkvWidth(s)}`, "forward all-reduce g 30"]);
    const want = attentionForward(x, w, s);
    for (const y of ys) for (let i = 0; i < y.length; i++) expect(Math.abs(y[i] - want[i])).toBeLessThanOrEqual(1e-5);
  });
  it("equals the unsharded attention within 1e-5 for every valid T, with and without GQA; the gather only when T > G (property)", () => {
    fc.assert(fc.property(fc.constantFrom(1, 2, 4, 8), fc.constantFrom(1, 2, 4, 8), fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 4 }), fc.integer(), (a, G0, batch, S, seed) => {
      const G = Math.min(a, G0), { s, w, x } = setup(a, G, batch, S, seed);
      const want = attentionForward(x, w, s);
      for (const T of validT(a, G, s.headDim)) {
        const comm = new TpComm(T);
        for (const y of tensorParallelAttentionForward(comm, x, w, s)) for (let i = 0; i < y.length; i++) expect(Math.abs(y[i] - want[i])).toBeLessThanOrEqual(1e-5);
        const ops = comm.log.map((l) => `${l.pass} ${l.collective} ${l.op}`);
        expect(ops).toEqual(T === 1 ? [] : [...(T > G ? ["forward all-gather qkv-gather"] : []), "forward all-reduce g"]);
      }
    }), { numRuns: 30 });
  });
  it("refuses the T that Megatron refuses, with the rule's message", () => {
    const { s, w, x } = setup(6, 2, 1, 1, 1, 1, 2);
    expect(() => tensorParallelAttentionForward(new TpComm(4), x, w, s)).toThrow("numHeads (6) must be divisible by T (4)");
    const q = setup(12, 4, 1, 1, 1, 2, 2);
    expect(() => tensorParallelAttentionForward(new TpComm(6), q.x, q.w, q.s)).toThrow(/numKvHeads \(4\) must be a multiple or a divisor of T \(6\)/);
  });
});

describe("tensorParallelAttentionBackward", () => {
  it("gives every rank its blocks of the unsharded gradients within 2^-18·(1 + max|grad|), for every valid T, with and without GQA (property)", () => {
    fc.assert(fc.property(fc.constantFrom(1, 2, 4, 8), fc.constantFrom(1, 2, 4, 8), fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 4 }), fc.integer(), (a, G0, batch, S, seed) => {
      const G = Math.min(a, G0), { s, w, x, dy } = setup(a, G, batch, S, seed), h = s.hiddenSize, d = s.headDim;
      const want = attentionBackward(x, w, s, dy);
      const tol = (m: Float32Array) => 2 ** -18 * (1 + Math.max(...m.map(Math.abs)));
      const near = (got: Float32Array, ref: Float32Array) => { expect(got.length).toBe(ref.length); for (let i = 0; i < ref.length; i++) expect(Math.abs(got[i] - ref[i])).toBeLessThanOrEqual(tol(ref)); };
      for (const T of validT(a, G, d)) {
        const comm = new TpComm(T);
        const got = tensorParallelAttentionBackward(comm, x, w, s, dy);
        const o = splitRows(want.dWo, a * d, h, T);
        got.forEach((g, r) => { expect(g.dWo).toEqual(o[r]); near(g.dx, want.dx); });
        const back = unfuseQkv(concatColumns(got.map((g) => g.dWqkv), h), s);
        if (G >= T) { expect(back.Wq).toEqual(want.dWq); expect(back.Wk).toEqual(want.dWk); expect(back.Wv).toEqual(want.dWv); } // bit for bit
        near(back.Wq, want.dWq); near(back.Wk, want.dWk); near(back.Wv, want.dWv);
        const ops = comm.log.map((l) => `${l.pass} ${l.collective} ${l.op}`);
        expect(ops).toEqual(T === 1 ? [] : [...(T > G ? ["backward reduce-scatter qkv-gather"] : []), "backward all-reduce f"]);
      }
    }), { numRuns: 30 });
  });
  it("the fused QKV weight shrinks as 1/T even when T > G: every rank holds (a + 2G)·d/T columns (no replicated KV heads)", () => {
    const { s, w, x, dy } = setup(8, 2, 1, 2, 3);
    for (const T of [1, 2, 4, 8]) {
      const got = tensorParallelAttentionBackward(new TpComm(T), x, w, s, dy);
      for (const g of got) expect(g.dWqkv.length).toBe((s.hiddenSize * fusedQkvWidth(s)) / T);
    }
  });
  it("rejects a dy of the wrong size, naming it", () => {
    const { s, w, x } = setup(2, 1, 1, 1, 1);
    expect(() => tensorParallelAttentionBackward(new TpComm(2), x, w, s, new Float32Array(3))).toThrow("dy must have batch·seqLen·hiddenSize = 5 elements, got 3");
  });
});
