import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { mergeAttentionPartials } from "./mergeAttentionPartials.js";
import { blockAttention } from "./blockAttention.js";
import { referenceAttention } from "../flash-attention/referenceAttention.js";
import { randomTensor } from "../flash-attention/randomTensor.js";
import { maxAbsDiff } from "../flash-attention/maxAbsDiff.js";

const part = (O: number[], lse: number[]) => ({ O: Float32Array.from(O), lse: Float32Array.from(lse) });

describe("mergeAttentionPartials", () => {
  it("mergeAttentionPartials weighs each part by e^(lse_part − lse) (worked example: keys with logits 0 and ln 3)", () => {
    const m = mergeAttentionPartials(part([4], [0]), part([8], [Math.log(3)]));
    expect(m.O[0]).toBeCloseTo(7, 6); // 1/4·4 + 3/4·8
    expect(m.lse[0]).toBeCloseTo(Math.log(4), 6);
  });
  it("mergeAttentionPartials with a part that saw only masked keys (lse = −∞) returns the other part; two empty parts stay empty, never NaN", () => {
    expect(mergeAttentionPartials(part([0, 0], [-Infinity]), part([5, -1], [2]))).toEqual(part([5, -1], [2]));
    expect(mergeAttentionPartials(part([5, -1], [2]), part([0, 0], [-Infinity]))).toEqual(part([5, -1], [2]));
    expect(mergeAttentionPartials(part([0], [-Infinity]), part([0], [-Infinity]))).toEqual(part([0], [-Infinity]));
  });
  it("mergeAttentionPartials does not overflow at lse = 1e4 (exp(1e4) = ∞) and keeps rows apart", () => {
    const m = mergeAttentionPartials(part([1, 3], [1e4, -1e4]), part([3, 5], [1e4, -1e4]));
    expect(Array.from(m.O)).toEqual([2, 4]);
    expect(m.lse[0]).toBeCloseTo(1e4 + Math.LN2, 2);
    expect(m.lse[1]).toBeCloseTo(-1e4 + Math.LN2, 2);
  });
  it("mergeAttentionPartials of two key blocks equals attention over all the keys (oracle: referenceAttention), in either order", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 1e6 }), (nq, n1, n2, d, seed) => {
      const q = randomTensor(nq * d, seed, 3), k = randomTensor((n1 + n2) * d, seed + 1, 3), v = randomTensor((n1 + n2) * d, seed + 2);
      const qPos = Array.from({ length: nq }, (_, i) => 2 * i); // causal: some rows see nothing in a block
      const kPos = Array.from({ length: n1 + n2 }, (_, j) => j);
      const dims = (nk: number) => ({ B: 1, H: 1, nq, nk, d });
      const a = blockAttention(q, k.slice(0, n1 * d), v.slice(0, n1 * d), dims(n1), qPos, kPos.slice(0, n1), { causal: true });
      const b = blockAttention(q, k.slice(n1 * d), v.slice(n1 * d), dims(n2), qPos, kPos.slice(n1), { causal: true });
      const mask = Uint8Array.from(qPos.flatMap((qp) => kPos.map((kp) => (kp <= qp ? 1 : 0))));
      const want = referenceAttention(q, k, v, { B: 1, H: 1, Nq: nq, Nk: n1 + n2, d }, { mask });
      for (const m of [mergeAttentionPartials(a, b), mergeAttentionPartials(b, a)]) {
        expect(maxAbsDiff(m.O, want.O)).toBeLessThanOrEqual(1e-6);
        expect(maxAbsDiff(m.lse, want.lse)).toBeLessThanOrEqual(1e-5);
      }
    }), { seed: 21, numRuns: 150 });
  });
  it("mergeAttentionPartials leaves its inputs unchanged and handles 10⁶ rows", () => {
    const a = part([1, 2], [0.5]), b = part([3, 4], [0.25]);
    mergeAttentionPartials(a, b);
    expect(a).toEqual(part([1, 2], [0.5]));
    const rows = 1_000_000;
    const big = { O: new Float32Array(rows).fill(1), lse: new Float32Array(rows).fill(-Infinity) };
    const m = mergeAttentionPartials(big, { O: new Float32Array(rows).fill(3), lse: new Float32Array(rows) });
    expect(m.O[rows - 1]).toBe(3);
    expect(m.lse[rows - 1]).toBe(0);
  });
  it("mergeAttentionPartials rejects partials of different shapes", () => {
    expect(() => mergeAttentionPartials(part([1, 2, 3], [0, 0, 0]), part([1, 2], [0, 0]))).toThrow(/^b\.lse must have 3 rows like a\.lse, got 2$/);
    expect(() => mergeAttentionPartials(part([1, 2, 3, 4, 5, 6, 7], [0, 0, 0]), part([1, 2, 3, 4, 5, 6, 7], [0, 0, 0]))).toThrow(/rows·d elements/);
  });
});
