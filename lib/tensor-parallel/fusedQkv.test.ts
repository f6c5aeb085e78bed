import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { fuseQkv, fusedQkvWidth, joinQkvGroups, splitQkvGroups, unfuseQkv } from "./fusedQkv.js";

const shape = (h: number, a: number, G: number, d: number) => ({ batch: 1, seqLen: 1, hiddenSize: h, numHeads: a, numKvHeads: G, headDim: d });

describe("fuseQkv (Megatron's fused QKV layout)", () => {
  it("a = 4, G = 2, d = 1, h = 1: columns q0 q1 k0 v0 | q2 q3 k1 v1 (attention.py's layout comment)", () => {
    const w = { Wq: new Float32Array([10, 11, 12, 13]), Wk: new Float32Array([20, 21]), Wv: new Float32Array([30, 31]) };
    expect([...fuseQkv(w, shape(1, 4, 2, 1))]).toEqual([10, 11, 20, 30, 12, 13, 21, 31]);
    expect(fusedQkvWidth(shape(1, 4, 2, 1))).toBe(8);
  });
  it("Llama-2-70B: (64 + 2·8)·128 = 10,240 fused columns", () => {
    expect(fusedQkvWidth({ numHeads: 64, numKvHeads: 8, headDim: 128 })).toBe(10240);
  });
  it("unfuseQkv inverts fuseQkv, and joinQkvGroups inverts splitQkvGroups, for random shapes (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 4 }), fc.constantFrom(1, 2, 4, 8), fc.constantFrom(1, 2, 4, 8), fc.integer({ min: 1, max: 3 }), (h, a, g0, d) => {
      const G = Math.min(a, g0), s = shape(h, a, G, d);
      const rnd = (n: number) => Float32Array.from({ length: n }, (_, i) => i * 7 + 1);
      const w = { Wq: rnd(h * a * d), Wk: rnd(h * G * d).map((x) => -x), Wv: rnd(h * G * d).map((x) => x + 0.5) };
      const back = unfuseQkv(fuseQkv(w, s), s);
      expect(back).toEqual(w);
      const m = fuseQkv(w, s), parts = splitQkvGroups(m, h, G, a / G, d);
      expect(joinQkvGroups(parts.Q, parts.K, parts.V, h, G, a / G, d)).toEqual(m);
    }));
  });
  it("names the bad field", () => {
    const w = { Wq: new Float32Array(4), Wk: new Float32Array(2), Wv: new Float32Array(2) };
    expect(() => fuseQkv(w, shape(1, 4, 3, 1))).toThrow("numKvHeads (3) must divide numHeads (4)");
    expect(() => fuseQkv({ ...w, Wq: new Float32Array(3) }, shape(1, 4, 2, 1))).toThrow("Wq must have h·a·d = 4 elements, got 3");
    expect(() => unfuseQkv(new Float32Array(7), shape(1, 4, 2, 1))).toThrow("fused must have h·(a + 2G)·d = 8 elements, got 7");
    expect(() => joinQkvGroups(new Float32Array(1), new Float32Array(1), new Float32Array(2), 1, 1, 1, 1)).toThrow("Q, K, V must have 1, 1, 1 elements, got 1, 1, 2");
  });
});
