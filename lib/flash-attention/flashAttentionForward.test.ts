import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { attentionCaseArb, makeCase } from "./arbitraries.js";
import { flashAttentionForward } from "./flashAttentionForward.js";
import { flashAttentionIO, standardAttentionIO } from "./ioCounts.js";
import { referenceAttention } from "./referenceAttention.js";
import { maxAbsDiff } from "./maxAbsDiff.js";

/** Tolerance of the CPU FlashAttention against the reference (both float64 inside, float32 out). */
const TOL = 1e-5;

describe("flashAttentionForward", () => {
  it("flashAttentionForward(…, {M: 16}) on N = 4, d = 2 uses B_c = B_r = 2 and matches the reference", () => {
    const c = makeCase({ B: 1, H: 1, Nq: 4, Nk: 4, d: 2 }, 11, {});
    const r = flashAttentionForward(c.q, c.k, c.v, c.shape, { M: 16 });
    expect([r.Bc, r.Br, r.Tc, r.Tr]).toEqual([2, 2, 2, 2]);
    const ref = referenceAttention(c.q, c.k, c.v, c.shape);
    expect(maxAbsDiff(r.O, ref.O)).toBeLessThan(TOL);
    expect(maxAbsDiff(r.lse, ref.lse)).toBeLessThan(TOL);
  });
  it("flashAttentionForward counts 112 HBM elements for N = 4, d = 2, M = 16 (Algorithm 1 by hand)", () => {
    const c = makeCase({ B: 1, H: 1, Nq: 4, Nk: 4, d: 2 }, 1, {});
    const io = flashAttentionForward(c.q, c.k, c.v, c.shape, { M: 16 }).io;
    // reads: K,V once (2·4·2 = 16) + per j ∈ {1,2}: Q, O (2·4·2 = 16) and ℓ, m (2·4 = 8)
    expect(io.readElements).toBe(16 + 2 * (16 + 8));
    // writes: init O, ℓ, m (8 + 8) + per j: O (8), ℓ and m (8)
    expect(io.writeElements).toBe(16 + 2 * (8 + 8));
  });
  it("flashAttentionForward's loop counters equal flashAttentionIO(shape, M) for small random N, d, M, with and without arithmetic", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 19 }), fc.integer({ min: 1, max: 19 }), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 300 }), (H, Nq, Nk, d, M) => {
      const c = makeCase({ B: 1, H, Nq, Nk, d }, Nq * 31 + Nk, {});
      const full = flashAttentionForward(c.q, c.k, c.v, c.shape, { M }).io;
      const counted = flashAttentionForward(c.q, c.k, c.v, c.shape, { M, countOnly: true }).io;
      // the loop-structure formula, written out: T_c = ⌈Nk / ⌈M/4d⌉⌉
      const Tc = Math.ceil(Nk / Math.ceil(M / (4 * d)));
      const reads = H * (2 * Nk * d + Tc * (2 * Nq * d + 2 * Nq));
      const writes = H * (Nq * d + 2 * Nq + Tc * (Nq * d + 2 * Nq));
      return full.readElements === reads && full.writeElements === writes && counted.totalElements === full.totalElements
        && full.totalElements === flashAttentionIO(c.shape, M).totalElements;
    }), { seed: 5, numRuns: 60 });
  });
  it("flashAttentionForward's traffic grows as N²d²/M (Theorem 2) and beats standard attention only once M exceeds about 3d²", () => {
    const d = 64;
    const ratio = (N: number, M: number) => flashAttentionIO({ B: 1, H: 1, Nq: N, Nk: N, d }, M).totalElements / (N * N * d * d / M);
    for (const [N, M] of [[4096, 100_000], [8192, 100_000], [16384, 50_000], [16384, 200_000]]) {
      expect(ratio(N, M)).toBeGreaterThan(12); // T_c ≥ 4Nd/M outer steps, each moving 3·N·d + 4·N elements
      expect(ratio(N, M)).toBeLessThan(14.5); // plus ceilings and the one-off 3·N·d + 2·N
    }
    expect(Math.abs(ratio(131072, 100_000) - (12 + 16 / d))).toBeLessThan(0.15); // the constant of Θ(N²d²/M): 12 + 16/d
    const shape = { B: 1, H: 1, Nq: 4096, Nk: 4096, d };
    expect(flashAttentionIO(shape, 2 * d * d).totalElements).toBeGreaterThan(standardAttentionIO(shape).totalElements);
    expect(flashAttentionIO(shape, 100_000).totalElements).toBeLessThan(standardAttentionIO(shape).totalElements / 3);
  });
  it("flashAttentionForward equals referenceAttention within 1e-5 for random shapes, masks, causal alignments and block sizes", () => {
    fc.assert(fc.property(attentionCaseArb(20, 8), fc.integer({ min: 1, max: 400 }), (c, M) => {
      const r = flashAttentionForward(c.q, c.k, c.v, c.shape, { ...c.opts, M });
      const ref = referenceAttention(c.q, c.k, c.v, c.shape, c.opts);
      return maxAbsDiff(r.O, ref.O) <= TOL && maxAbsDiff(r.lse, ref.lse) <= TOL * (1 + Math.max(...Array.from(ref.lse, (x) => (Number.isFinite(x) ? Math.abs(x) : 0))));
    }), { seed: 42, numRuns: 80 });
  });
  it("flashAttentionForward handles d = 1 and d = 256 with N not a multiple of the block sizes", () => {
    for (const [d, M, N] of [[1, 10, 14], [256, 4096, 7], [256, 3000, 11]]) {
      const c = makeCase({ B: 1, H: 1, Nq: N, Nk: N + 2, d }, d, { causal: "bottom-right" });
      const r = flashAttentionForward(c.q, c.k, c.v, c.shape, { ...c.opts, M });
      expect(N % r.Br !== 0 || (N + 2) % r.Bc !== 0).toBe(true);
      expect(maxAbsDiff(r.O, referenceAttention(c.q, c.k, c.v, c.shape, c.opts).O)).toBeLessThan(TOL);
    }
  });
  it("flashAttentionForward is exact for logits of ±1e4 and leaves fully masked rows at O = 0, lse = −Infinity", () => {
    const c = makeCase({ B: 1, H: 2, Nq: 9, Nk: 4, d: 3 }, 9, { causal: "bottom-right", amplitude: 60 });
    const r = flashAttentionForward(c.q, c.k, c.v, c.shape, { ...c.opts, M: 12, scale: 1 });
    const ref = referenceAttention(c.q, c.k, c.v, c.shape, { ...c.opts, scale: 1 });
    expect(Math.max(...Array.from(ref.lse).filter(Number.isFinite).map(Math.abs))).toBeGreaterThan(1000);
    expect(maxAbsDiff(r.O, ref.O)).toBeLessThan(TOL);
    expect(r.O.some(Number.isNaN) || r.lse.some(Number.isNaN)).toBe(false);
    expect(Array.from(r.lse.subarray(0, 5))).toEqual(Array(5).fill(-Infinity)); // rows 0..4 of a 9×4 bottom-right mask see no key
    expect(r.O.subarray(0, 15).every((x) => x === 0)).toBe(true);
  });
  it("flashAttentionForward's trace shows m non-decreasing and ℓ·e^m growing as key blocks stream by", () => {
    const c = makeCase({ B: 1, H: 1, Nq: 6, Nk: 23, d: 4 }, 3, { amplitude: 2 });
    const r = flashAttentionForward(c.q, c.k, c.v, c.shape, { M: 64, traceRow: { bh: 0, row: 2 } });
    expect(r.trace.length).toBe(r.Tc);
    for (let t = 1; t < r.trace.length; t++) {
      expect(r.trace[t].m).toBeGreaterThanOrEqual(r.trace[t - 1].m);
      expect(Math.log(r.trace[t].l) + r.trace[t].m).toBeGreaterThan(Math.log(r.trace[t - 1].l) + r.trace[t - 1].m);
    }
    const last = r.trace[r.trace.length - 1];
    expect(last.m + Math.log(last.l)).toBeCloseTo(r.lse[2], 4);
  });
  it("flashAttentionForward throws RangeErrors naming M and traceRow", () => {
    const c = makeCase({ B: 1, H: 1, Nq: 4, Nk: 4, d: 2 }, 1, {});
    expect(() => flashAttentionForward(c.q, c.k, c.v, c.shape, { M: 0 })).toThrow("M must be an integer >= 1, got 0");
    expect(() => flashAttentionForward(c.q, c.k, c.v, c.shape, { M: 8, traceRow: { bh: 0, row: 4 } })).toThrow("traceRow.row must be an integer in [0, 4), got 4");
  });
});
