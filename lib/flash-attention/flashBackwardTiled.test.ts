import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { makeCase } from "./arbitraries.js";
import { flashBackwardIO, flashBackwardTiled } from "./flashBackwardTiled.js";
import { maxAbsDiff } from "./maxAbsDiff.js";
import { randomTensor } from "./randomTensor.js";
import { referenceAttention } from "./referenceAttention.js";
import { referenceAttentionBackward } from "./referenceAttentionBackward.js";
import { createSlowMemory } from "./slowMemory.js";
import type { AttentionOptions, AttentionShape } from "./shape.js";

/** Forward with the reference, then the tiled backward through a counted slow memory. */
function run(shape: AttentionShape, seed: number, Br: number, Bc: number, causal?: AttentionOptions["causal"], scale?: number) {
  const c = makeCase(shape, seed, { causal, amplitude: 2 });
  const opts = { ...c.opts, ...(scale === undefined ? {} : { scale }) };
  const fwd = referenceAttention(c.q, c.k, c.v, shape, opts);
  const dO = randomTensor(c.q.length, seed + 7);
  const mem = createSlowMemory({ Q: c.q, K: c.k, V: c.v, O: fwd.O, dO, L: fwd.lse }, shape, { Br, Bc });
  flashBackwardTiled(mem, shape, { Br, Bc, causal, scale });
  return { c, dO, mem, opts };
}

describe("flashBackwardTiled", () => {
  it("flashBackwardTiled gives dQ = 0.75·ln 3, dK = [−0.75, 0.75], dV = [0.25, 0.75] for one query and keys with logits 0 and ln 3", () => {
    // By hand: P = [1/4, 3/4], O = 7, D = dO·O = 7, dP = dO·V = [4, 8], dS = P∘(dP − D) = [−3/4, 3/4];
    // dV = Pᵀ·dO = P; dQ = dS·K = (3/4)·ln 3; dK = dSᵀ·Q = dS.
    const shape = { B: 1, H: 1, Nq: 1, Nk: 2, d: 1 };
    const mem = createSlowMemory({ Q: Float32Array.of(1), K: Float32Array.of(0, Math.log(3)), V: Float32Array.of(4, 8), O: Float32Array.of(7), dO: Float32Array.of(1), L: Float32Array.of(Math.log(4)) }, shape, { Br: 1, Bc: 1 });
    flashBackwardTiled(mem, shape, { Br: 1, Bc: 1, scale: 1 });
    expect(mem.tensors.D[0]).toBeCloseTo(7, 6);
    expect(mem.tensors.dQ[0]).toBeCloseTo(0.75 * Math.log(3), 6);
    expect(Array.from(mem.tensors.dK)).toEqual([expect.closeTo(-0.75, 6), expect.closeTo(0.75, 6)]);
    expect(Array.from(mem.tensors.dV)).toEqual([expect.closeTo(0.25, 6), expect.closeTo(0.75, 6)]);
  });

  it("flashBackwardTiled equals referenceAttentionBackward (checked against finite differences) for random shapes, masks and ragged tiles", () => {
    fc.assert(fc.property(
      fc.record({ B: fc.integer({ min: 1, max: 2 }), H: fc.integer({ min: 1, max: 2 }), Nq: fc.integer({ min: 1, max: 11 }), Nk: fc.integer({ min: 1, max: 11 }), d: fc.integer({ min: 1, max: 6 }) }),
      fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }), fc.constantFrom(undefined, "bottom-right" as const, "top-left" as const),
      (shape, seed, Br, Bc, causal) => {
        const { c, dO, mem, opts } = run(shape, seed, Br, Bc, causal);
        const ref = referenceAttentionBackward(c.q, c.k, c.v, dO, shape, opts);
        const tol = (a: Float32Array) => 1e-5 * (1 + Math.max(0, ...Array.from(a, Math.abs)));
        return maxAbsDiff(mem.tensors.dQ, ref.dQ) <= tol(ref.dQ) && maxAbsDiff(mem.tensors.dK, ref.dK) <= tol(ref.dK) && maxAbsDiff(mem.tensors.dV, ref.dV) <= tol(ref.dV);
      }), { seed: 31, numRuns: 80 });
  });

  it("flashBackwardTiled's counters equal flashBackwardIO tensor by tensor", () => {
    fc.assert(fc.property(
      fc.record({ B: fc.integer({ min: 1, max: 2 }), H: fc.integer({ min: 1, max: 2 }), Nq: fc.integer({ min: 1, max: 13 }), Nk: fc.integer({ min: 1, max: 13 }), d: fc.integer({ min: 1, max: 4 }) }),
      fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), fc.constantFrom(undefined, "bottom-right" as const),
      (shape, Br, Bc, causal) => {
        const { mem } = run(shape, 3, Br, Bc, causal);
        const io = flashBackwardIO(shape, { Br, Bc });
        expect(mem.reads).toEqual(io.reads);
        expect(mem.writes).toEqual(io.writes);
      }), { seed: 32, numRuns: 60 });
  });

  it("flashBackwardIO: K and V are read once, Q, dO, L, D, dQ once per key block (worked example)", () => {
    // Nq = 5, Nk = 7, d = 3, Bc = 3: T_c = 3. Q: 3·15 = 45; dO: 15 + 45 = 60; K, V: 21; L, D: 3·5 = 15.
    const io = flashBackwardIO({ B: 1, H: 1, Nq: 5, Nk: 7, d: 3 }, { Br: 2, Bc: 3 });
    expect(io.reads).toMatchObject({ Q: 45, dO: 60, O: 15, K: 21, V: 21, L: 15, D: 15, dQ: 45, dK: 0, dV: 0 });
    expect(io.writes).toMatchObject({ D: 5, dQ: 45, dK: 21, dV: 21, Q: 0 });
  });

  it("flashBackwardTiled gives zero gradients and no NaN for fully masked rows", () => {
    const shape = { B: 1, H: 1, Nq: 6, Nk: 3, d: 2 };
    const { mem } = run(shape, 5, 4, 2, "bottom-right");
    expect(Array.from(mem.tensors.dQ.subarray(0, 6))).toEqual([0, 0, 0, 0, 0, 0]); // rows 0..2 see no key
    expect([...mem.tensors.dQ, ...mem.tensors.dK, ...mem.tensors.dV].some(Number.isNaN)).toBe(false);
  });

  it("flashBackwardTiled throws a RangeError naming Br or Bc before touching memory", () => {
    const shape = { B: 1, H: 1, Nq: 2, Nk: 2, d: 1 };
    const z = new Float32Array(2);
    const mem = createSlowMemory({ Q: z, K: z, V: z, O: z, dO: z, L: z }, shape, { Br: 2, Bc: 2 });
    expect(() => flashBackwardTiled(mem, shape, { Br: 0, Bc: 1 })).toThrow(RangeError);
    expect(() => flashBackwardTiled(mem, shape, { Br: 0, Bc: 1 })).toThrow("Br must be an integer >= 1, got 0");
    expect(() => flashBackwardTiled(mem, shape, { Br: 1, Bc: 1.5 })).toThrow("Bc must be an integer >= 1, got 1.5");
    expect(Object.values(mem.reads).every((n) => n === 0)).toBe(true);
  });
});

describe("createSlowMemory", () => {
  const shape = { B: 1, H: 2, Nq: 3, Nk: 4, d: 2 };
  const t = (n: number) => randomTensor(n, n);
  const inputs = () => ({ Q: t(12), K: t(16), V: t(16), O: t(12), dO: t(12), L: t(6) });
  it("createSlowMemory reads copies of rows of one head and counts their elements", () => {
    const mem = createSlowMemory(inputs(), shape, { Br: 2, Bc: 3 });
    const k = mem.read("K", 1, 1, 4); // head 1, rows 1..3 of (2, 4, 2)
    expect(Array.from(k)).toEqual(Array.from(mem.tensors.K.subarray(10, 16)));
    k[0] = 99;
    expect(mem.tensors.K[10]).not.toBe(99);
    expect(mem.reads.K).toBe(6);
    mem.write("dQ", 0, 1, 3, [1, 2, 3, 4]);
    expect(Array.from(mem.tensors.dQ.subarray(2, 6))).toEqual([1, 2, 3, 4]);
    expect(mem.writes.dQ).toBe(4);
  });
  it("createSlowMemory rejects tiles larger than Br/Bc, writes to inputs, bad rows and wrong lengths with a RangeError", () => {
    const mem = createSlowMemory(inputs(), shape, { Br: 2, Bc: 3 });
    expect(() => mem.read("K", 0, 0, 4)).toThrow("read(K): 4 rows exceed the tile of Bc = 3 rows");
    expect(() => mem.read("Q", 0, 0, 3)).toThrow("read(Q): 3 rows exceed the tile of Br = 2 rows");
    expect(() => mem.write("Q", 0, 0, 1, [0, 0])).toThrow("write(Q): Q is an input and read-only");
    expect(() => mem.read("L", 2, 0, 1)).toThrow("read(L): bh must be an integer in [0, 2), got 2");
    expect(() => mem.read("dO", 0, 1, 1)).toThrow(RangeError);
    expect(() => mem.write("D", 0, 0, 2, [1])).toThrow("write(D): expected 2 values, got 1");
    expect(() => mem.read("P" as never, 0, 0, 1)).toThrow(/unknown tensor "P"/);
    expect(() => createSlowMemory({ ...inputs(), L: t(5) }, shape, { Br: 1, Bc: 1 })).toThrow("L must have length 6 (B·H·Nq), got 5");
  });
});
