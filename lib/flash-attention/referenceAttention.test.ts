import { describe, expect, it } from "vitest";
import { referenceAttention } from "./referenceAttention.js";

const one = (Nq: number, Nk: number, d: number) => ({ B: 1, H: 1, Nq, Nk, d });
const f32 = (xs: number[]) => new Float32Array(xs);

describe("referenceAttention", () => {
  it("referenceAttention weights V by softmax(QKᵀ): S = [0, ln 3] gives P = [1/4, 3/4] (worked example)", () => {
    const r = referenceAttention(f32([1]), f32([0, Math.log(3)]), f32([4, 8]), one(1, 2, 1), { scale: 1 });
    expect(r.O[0]).toBeCloseTo(4 / 4 + 8 * 3 / 4, 5);
    expect(r.lse[0]).toBeCloseTo(Math.log(4), 6);
  });
  it("referenceAttention with identical keys returns the mean of V for every query", () => {
    const r = referenceAttention(f32([1, 2, -3, 4]), f32([1, 1, 1, 1, 1, 1]), f32([1, 10, 2, 20, 6, 60]), one(2, 3, 2));
    expect(Array.from(r.O)).toEqual([3, 30, 3, 30].map((x) => expect.closeTo(x, 5)));
  });
  it("referenceAttention is exact for logits of ±1e4 (a gap of 1 between the top two logits)", () => {
    const e = Math.E;
    for (const sign of [1, -1]) {
      const r = referenceAttention(f32([sign * 100, 1]), f32([100, 1, 100, 0]), f32([1, 0, 0, 1]), one(1, 2, 2), { scale: 1 });
      expect(r.O[0]).toBeCloseTo(e / (1 + e), 6);
      expect(r.O[1]).toBeCloseTo(1 / (1 + e), 6);
      expect(r.lse[0]).toBeCloseTo(sign * 1e4 + 1 + Math.log(1 + 1 / e), 2); // float32 lse near 1e4 has ulp 1e-3
    }
  });
  it("referenceAttention gives O = 0 and lse = −Infinity (no NaN) for rows whose keys are all masked", () => {
    const q = f32(Array.from({ length: 5 * 2 }, (_, i) => i / 10));
    const k = f32([1, 0, 0, 1]);
    const v = f32([7, 8, 9, 10]);
    const r = referenceAttention(q, k, v, one(5, 2, 2), { causal: "bottom-right" });
    expect(Array.from(r.lse.subarray(0, 3))).toEqual([-Infinity, -Infinity, -Infinity]);
    expect(Array.from(r.O.subarray(0, 6))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(Array.from(r.O.subarray(6, 8))).toEqual([7, 8]); // row 3 sees key 0 only
    const all = referenceAttention(q, k, v, one(5, 2, 2), { mask: new Uint8Array(10) });
    expect(all.O.every((x) => x === 0) && all.lse.every((x) => x === -Infinity)).toBe(true);
  });
  it("referenceAttention with causal 'top-left' lets row 0 see only key 0, as PyTorch's is_causal", () => {
    const r = referenceAttention(f32([0, 0]), f32([0, 0, 0]), f32([5, 6, 7]), one(2, 3, 1), { causal: "top-left", scale: 1 });
    expect(Array.from(r.O)).toEqual([5, 5.5]);
    const br = referenceAttention(f32([0, 0]), f32([0, 0, 0]), f32([5, 6, 7]), one(2, 3, 1), { causal: "bottom-right", scale: 1 });
    expect(Array.from(br.O)).toEqual([5.5, 6]);
  });
  it("referenceAttention treats every (b, h) slice independently", () => {
    const q = f32([1, 2, 3, 4]);
    const k = f32([0.5, -1, 2, 1, 0, 3]);
    const v = f32([1, 2, 3, 4, 5, 6]);
    const both = referenceAttention(q, k, v, { B: 2, H: 1, Nq: 2, Nk: 3, d: 1 });
    const first = referenceAttention(q.subarray(0, 2), k.subarray(0, 3), v.subarray(0, 3), one(2, 3, 1));
    const second = referenceAttention(q.subarray(2), k.subarray(3), v.subarray(3), one(2, 3, 1));
    expect(Array.from(both.O)).toEqual([...first.O, ...second.O]);
  });
  it("referenceAttention counts 2Nd + 2Nd + 4N² slow-memory elements for N = 4, d = 2 (Algorithm 0)", () => {
    const r = referenceAttention(new Float32Array(8), new Float32Array(8), new Float32Array(8), one(4, 4, 2));
    expect(r.io.readElements).toBe(8 + 8 + 16 + 16 + 8); // Q, K; S; P, V
    expect(r.io.writeElements).toBe(16 + 16 + 8); // S, P, O
    expect(r.io.totalBytes).toBe(96 * 4);
  });
  it("referenceAttention throws RangeErrors naming the field", () => {
    expect(() => referenceAttention(f32([1]), f32([1]), f32([1]), one(1, 1, 2))).toThrow("q must have length 2 (B·H·Nq·d), got 1");
    expect(() => referenceAttention(f32([1]), f32([1]), f32([1]), { B: 0, H: 1, Nq: 1, Nk: 1, d: 1 })).toThrow("B must be an integer >= 1, got 0");
    expect(() => referenceAttention(f32([1]), f32([1]), f32([1]), one(1, 1, 1), { scale: NaN })).toThrow("scale must be a finite number > 0, got NaN");
    expect(() => referenceAttention(f32([1]), f32([1]), f32([1]), one(1, 1, 1), { mask: new Uint8Array(2) })).toThrow("mask must have length 1 (Nq·Nk), got 2");
  });
});
