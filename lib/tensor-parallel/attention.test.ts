import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { mulberry32, gaussian } from "../nn/index.js";
import { TpComm } from "./comm.js";
import { attentionBackward, attentionForward, tensorParallelAttentionBackward, tensorParallelAttentionForward } from "./attention.js";
import { splitColumns, splitRows } from "./shard.js";

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

describe("attentionBackward (unsharded reference)", () => {
  it("matches central finite differences of L = Σ dy·y in float64-sized steps (oracle)", () => {
    const rng = mulberry32(3), s = { batch: 2, seqLen: 3, hiddenSize: 4, numHeads: 4, numKvHeads: 2, headDim: 2 };
    const w = { Wq: rand(4 * 8, rng), Wk: rand(4 * 4, rng), Wv: rand(4 * 4, rng), Wo: rand(8 * 4, rng) };
    const x = rand(6 * 4, rng), dy = rand(6 * 4, rng);
    const g = attentionBackward(x, w, s, dy);
    const loss = (xx: Float32Array, ww: typeof w) => { const y = attentionForward(xx, ww, s); let l = 0; for (let i = 0; i < y.length; i++) l += y[i] * dy[i]; return l; };
    const eps = 1e-2;
    for (const key of ["Wq", "Wk", "Wv", "Wo"] as const) {
      for (let i = 0; i < w[key].length; i += 3) {
        const up = { ...w, [key]: w[key].slice() }, dn = { ...w, [key]: w[key].slice() };
        up[key][i] += eps; dn[key][i] -= eps;
        const fd = (loss(x, up) - loss(x, dn)) / (2 * eps);
        expect(Math.abs(fd - g[`d${key}`][i])).toBeLessThanOrEqual(2e-3 * (1 + Math.abs(fd)));
      }
    }
    for (let i = 0; i < x.length; i += 2) {
      const up = x.slice(), dn = x.slice(); up[i] += eps; dn[i] -= eps;
      const fd = (loss(up, w) - loss(dn, w)) / (2 * eps);
      expect(Math.abs(fd - g.dx[i])).toBeLessThanOrEqual(2e-3 * (1 + Math.abs(fd)));
    }
  });

  it("one token: the softmax is constant, so dWq = dWk = 0 and dx = dy·Woᵀ·Wvᵀ (worked example)", () => {
    const w = { Wq: new Float32Array([1, 0, 0, 1]), Wk: new Float32Array([1, 0, 0, 1]), Wv: new Float32Array([2, 0, 0, 3]), Wo: new Float32Array([1, 1, 0, 1]) };
    const g = attentionBackward(new Float32Array([1, 1]), w, { batch: 1, seqLen: 1, hiddenSize: 2, numHeads: 1, numKvHeads: 1, headDim: 2 }, new Float32Array([1, 0]));
    expect([...g.dWq]).toEqual([0, 0, 0, 0]);
    expect([...g.dWk]).toEqual([0, 0, 0, 0]);
    expect([...g.dx]).toEqual([2, 0]); // dO = dy·Woᵀ = [1, 0]; dV = dO; dx = dV·Wvᵀ = [2, 0]
    expect([...g.dWo]).toEqual([2, 0, 3, 0]); // headsᵀ·dy with heads = x·Wv = [2, 3]
  });

  it("rejects a dy of the wrong size, naming it", () => {
    const s = { batch: 1, seqLen: 1, hiddenSize: 2, numHeads: 1, numKvHeads: 1, headDim: 2 };
    const w = { Wq: new Float32Array(4), Wk: new Float32Array(4), Wv: new Float32Array(4), Wo: new Float32Array(4) };
    expect(() => attentionBackward(new Float32Array(2), w, s, new Float32Array(3))).toThrow("dy must have batch·seqLen·hiddenSize = 2 elements, got 3");
    expect(() => tensorParallelAttentionBackward(new TpComm(1), new Float32Array(2), w, s, new Float32Array(3))).toThrow("dy must have batch·seqLen·hiddenSize = 2 elements, got 3");
  });
});

describe("tensorParallelAttentionBackward", () => {
  it("gives every rank the unsharded gradients' blocks, within 2^-18·(1 + max|grad|), for every valid T, with and without GQA (property)", () => {
    fc.assert(fc.property(fc.constantFrom(1, 2, 4, 8), fc.constantFrom(1, 2, 4, 8), fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 4 }), fc.integer(), (a, G0, batch, S, seed) => {
      const G = Math.min(a, G0), d = 3, h = 5, rng = mulberry32(seed);
      const s = { batch, seqLen: S, hiddenSize: h, numHeads: a, numKvHeads: G, headDim: d };
      const w = { Wq: rand(h * a * d, rng), Wk: rand(h * G * d, rng), Wv: rand(h * G * d, rng), Wo: rand(a * d * h, rng) };
      const x = rand(batch * S * h, rng), dy = rand(batch * S * h, rng);
      const want = attentionBackward(x, w, s, dy);
      const tol = (m: Float32Array) => 2 ** -18 * (1 + Math.max(...m.map(Math.abs)));
      for (const T of [1, 2, 4, 8].filter((t) => a % t === 0)) {
        const comm = new TpComm(T);
        const got = tensorParallelAttentionBackward(comm, x, w, s, dy);
        const q = splitColumns(want.dWq, h, a * d, T), o = splitRows(want.dWo, a * d, h, T);
        got.forEach((g, r) => {
          expect(g.dWq).toEqual(q[r]); // bit for bit: the same dot products in the same order
          expect(g.dWo).toEqual(o[r]);
          const g0 = Math.floor((r * a / T) / (a / G)), nkv = g.dWk.length / (h * d);
          const k = splitColumns(want.dWk, h, G * d, G).slice(g0, g0 + nkv), v = splitColumns(want.dWv, h, G * d, G).slice(g0, g0 + nkv);
          const cat = (bs: Float32Array[]) => { const out = new Float32Array(h * d * bs.length); for (let i = 0; i < h; i++) bs.forEach((b, j) => out.set(b.subarray(i * d, (i + 1) * d), (i * bs.length + j) * d)); return out; };
          const wk = cat(k), wv = cat(v);
          if (G >= T) { expect(g.dWk).toEqual(wk); expect(g.dWv).toEqual(wv); }
          for (let i = 0; i < wk.length; i++) { expect(Math.abs(g.dWk[i] - wk[i])).toBeLessThanOrEqual(tol(want.dWk)); expect(Math.abs(g.dWv[i] - wv[i])).toBeLessThanOrEqual(tol(want.dWv)); }
          for (let i = 0; i < want.dx.length; i++) expect(Math.abs(g.dx[i] - want.dx[i])).toBeLessThanOrEqual(tol(want.dx));
        });
        const ops = comm.log.map((l) => `${l.pass} ${l.collective} ${l.op}`);
        const kv = T > G ? Array.from({ length: 2 * G }, () => "backward all-reduce kv-grad") : [];
        expect(ops).toEqual(T === 1 ? [] : ["backward all-reduce f", ...kv]);
      }
    }), { numRuns: 30 });
  });
});
