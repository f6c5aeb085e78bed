import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { mulberry32, gaussian } from "../nn/index.js";
import { TpComm } from "./comm.js";
import { attentionBackward, attentionForward } from "./attention.js";
import { tensorParallelAttentionBackward } from "./tensorParallelAttention.js";

const rand = (n: number, rng: () => number) => Float32Array.from({ length: n }, () => gaussian(rng) * 0.5);

describe("attentionForward (unsharded reference)", () => {
  it("one token attends to itself: y = x·Wv·Wo (worked example)", () => {
    const w = { Wq: new Float32Array([1, 0, 0, 1]), Wk: new Float32Array([1, 0, 0, 1]), Wv: new Float32Array([2, 0, 0, 3]), Wo: new Float32Array([1, 1, 0, 1]) };
    expect([...attentionForward(new Float32Array([1, 1]), w, { batch: 1, seqLen: 1, hiddenSize: 2, numHeads: 1, numKvHeads: 1, headDim: 2 })]).toEqual([2, 5]);
  });
  it("rejects KV heads that do not divide the query heads, naming the field", () => {
    const s = { batch: 1, seqLen: 1, hiddenSize: 2, numHeads: 6, numKvHeads: 4, headDim: 1 };
    const w = { Wq: new Float32Array(12), Wk: new Float32Array(8), Wv: new Float32Array(8), Wo: new Float32Array(12) };
    expect(() => attentionForward(new Float32Array(2), w, s)).toThrow("numKvHeads (4) must divide numHeads (6)");
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
