import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { mulberry32, gaussian } from "../nn/index.js";
import { TpComm } from "./comm.js";
import { attentionForward, tensorParallelAttentionForward } from "./attention.js";

const rand = (n: number, rng: () => number) => Float32Array.from({ length: n }, () => gaussian(rng) * 0.5);

describe("tensorParallelAttentionForward", () => {
  it("one token attends to itself: y = x·Wv·Wo (worked example)", () => {
    const w = { Wq: new Float32Array([1, 0, 0, 1]), Wk: new Float32Array([1, 0, 0, 1]), Wv: new Float32Array([2, 0, 0, 3]), Wo: new Float32Array([1, 1, 0, 1]) };
    expect([...attentionForward(new Float32Array([1, 1]), w, { batch: 1, seqLen: 1, hiddenSize: 2, numHeads: 1, numKvHeads: 1, headDim: 2 })]).toEqual([2, 5]);
  });

  it("equals the unsharded attention within 1e-5 for every valid T, with and without grouped-query attention; one forward all-reduce (property)", () => {
    fc.assert(fc.property(fc.constantFrom(1, 2, 4, 8), fc.constantFrom(1, 2, 4, 8), fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 4 }), fc.integer(), (a, G0, batch, S, seed) => {
      const G = Math.min(a, G0), d = 3, h = 5, rng = mulberry32(seed);
      const s = { batch, seqLen: S, hiddenSize: h, numHeads: a, numKvHeads: G, headDim: d };
      const w = { Wq: rand(h * a * d, rng), Wk: rand(h * G * d, rng), Wv: rand(h * G * d, rng), Wo: rand(a * d * h, rng) };
      const x = rand(batch * S * h, rng);
      const want = attentionForward(x, w, s);
      for (const T of [1, 2, 4, 8].filter((t) => a % t === 0)) {
        const comm = new TpComm(T);
        const ys = tensorParallelAttentionForward(comm, x, w, s);
        for (const y of ys) for (let i = 0; i < y.length; i++) expect(Math.abs(y[i] - want[i])).toBeLessThanOrEqual(1e-5);
        expect(comm.log.map((l) => `${l.pass} ${l.collective} ${l.op}`)).toEqual(T === 1 ? [] : ["forward all-reduce g"]);
      }
    }), { numRuns: 30 });
  });

  it("rejects a T that does not divide the heads, naming the field", () => {
    const s = { batch: 1, seqLen: 1, hiddenSize: 2, numHeads: 6, numKvHeads: 2, headDim: 1 };
    const w = { Wq: new Float32Array(12), Wk: new Float32Array(4), Wv: new Float32Array(4), Wo: new Float32Array(12) };
    expect(() => tensorParallelAttentionForward(new TpComm(4), new Float32Array(2), w, s)).toThrow("numHeads (6) must be divisible by T (4)");
    expect(() => attentionForward(new Float32Array(2), w, { ...s, numKvHeads: 4 })).toThrow("numKvHeads (4) must divide numHeads (6)");
  });
});
