import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { flashForwardTraffic, flashForwardWorkgroups, workgroupTiles } from "./flashForwardWorkgroups.js";
import { createWorkgroupDevice } from "./createWorkgroupDevice.js";
import { referenceAttention } from "./referenceAttention.js";
import { makeCase } from "./arbitraries.js";
import { maxAbsDiff } from "./maxAbsDiff.js";
import { flashBlockSizes } from "./flashBlockSizes.js";
import type { AttentionShape } from "./shape.js";

const near = (a: ArrayLike<number>, b: ArrayLike<number>) => maxAbsDiff(a, b) <= 2e-6 * (1 + Math.max(...Array.from(b, (x) => (Number.isFinite(x) ? Math.abs(x) : 0))));

function run(shape: AttentionShape, capacity: number, seed: number, causal?: "bottom-right" | "top-left") {
  const c = makeCase(shape, seed, { causal, amplitude: 2 });
  const dev = createWorkgroupDevice({ Q: c.q, K: c.k, V: c.v }, shape, capacity, c.opts);
  flashForwardWorkgroups(dev, shape, c.opts);
  return { dev, ref: referenceAttention(c.q, c.k, c.v, shape, c.opts) };
}

describe("flashForwardWorkgroups", () => {
  it("flashForwardWorkgroups on one query and two keys (logits 0 and ln 3, V = 4 and 8) leaves O = 7, L = ln 4", () => {
    const shape = { B: 1, H: 1, Nq: 1, Nk: 2, d: 1 };
    const dev = createWorkgroupDevice({ Q: Float32Array.of(1), K: Float32Array.of(0, Math.log(3)), V: Float32Array.of(4, 8) }, shape, 8);
    flashForwardWorkgroups(dev, shape, { scale: 1 });
    expect(dev.O[0]).toBeCloseTo(7, 6);
    expect(dev.L[0]).toBeCloseTo(Math.log(4), 6);
  });

  it("workgroupTiles(4096, 64) is chapter 10's rule for 16 KiB: 16 × 16 tiles (flashBlockSizes is the oracle)", () => {
    expect(workgroupTiles(4096, 64)).toEqual(flashBlockSizes(4096, 64));
    expect(() => workgroupTiles(99, 32)).toThrow("capacity = 99 elements cannot hold one row of Q, K and V (3·d + 4 = 100)");
  });

  it("flashForwardWorkgroups equals referenceAttention, moves exactly flashForwardTraffic and passes the on-chip rules (property)", () => {
    fc.assert(fc.property(fc.record({ B: fc.integer({ min: 1, max: 2 }), H: fc.integer({ min: 1, max: 2 }), Nq: fc.integer({ min: 1, max: 24 }), Nk: fc.integer({ min: 1, max: 24 }), d: fc.integer({ min: 1, max: 8 }) }),
      fc.integer({ min: 40, max: 400 }), fc.integer({ min: 0, max: 1e6 }), (shape, capacity, seed) => {
        fc.pre(capacity >= 3 * shape.d + 4);
        const { dev, ref } = run(shape, capacity, seed);
        expect(near(dev.O, ref.O)).toBe(true);
        expect(near(dev.L, ref.lse)).toBe(true);
        expect(dev.reads.Q + dev.reads.K + dev.reads.V + dev.writes.O + dev.writes.L).toBe(flashForwardTraffic(shape, capacity));
      }), { seed: 11, numRuns: 60 });
  });

  it("flashForwardWorkgroups handles both causal alignments and fully masked rows (O = 0, L = −Infinity), reading fewer key tiles", () => {
    for (const causal of ["bottom-right", "top-left"] as const) {
      const shape = { B: 1, H: 2, Nq: 20, Nk: 13, d: 4 };
      const { dev, ref } = run(shape, 64, 3, causal);
      expect(near(dev.O, ref.O)).toBe(true);
      expect(Array.from(dev.L)).toEqual(Array.from(ref.lse, (x, i) => (x === -Infinity ? -Infinity : dev.L[i])));
      expect(near(dev.L.map((x) => (x === -Infinity ? 0 : x)), ref.lse.map((x) => (x === -Infinity ? 0 : x)))).toBe(true);
      const unmasked = run(shape, 64, 3);
      expect(dev.reads.K).toBeLessThan(unmasked.dev.reads.K);
    }
  });

  it("flashForwardTraffic: 16 KiB, N = 4096, d = 64 re-reads K and V 256 times, not N² scores", () => {
    const shape = { B: 1, H: 1, Nq: 4096, Nk: 4096, d: 64 };
    expect(flashForwardTraffic(shape, 4096)).toBe(2 * 4096 * 64 + 4096 + 2 * 256 * 4096 * 64);
  });
});

describe("createWorkgroupDevice", () => {
  const shape = { B: 1, H: 1, Nq: 2, Nk: 2, d: 2 };
  const z = () => ({ Q: Float32Array.of(1, 2, 3, 4), K: Float32Array.of(5, 6, 7, 8), V: Float32Array.of(9, 10, 11, 12) });

  it("createWorkgroupDevice counts loads and stores and enforces the capacity of workgroup memory", () => {
    const dev = createWorkgroupDevice(z(), shape, 6);
    dev.dispatch(1, 1, (wg) => {
      const t = wg.alloc(6);
      wg.load("Q", 0, 0, 2, t, 0);
      expect(Array.from(t.subarray(0, 4))).toEqual([1, 2, 3, 4]);
      expect(() => wg.alloc(1)).toThrow("alloc: 1 elements exceed this workgroup's memory (6 elements, 6 in use)");
      expect(() => wg.load("K", 0, 0, 2, new Float32Array(4))).toThrow("load(K): dst must be workgroup memory from this workgroup's alloc");
    });
    expect(dev.reads).toEqual({ Q: 4, K: 0, V: 0 });
    expect(dev.workgroups).toBe(1);
  });

  it("createWorkgroupDevice refuses an output whose inputs are not on chip, and poisons a finished workgroup's memory", () => {
    const dev = createWorkgroupDevice(z(), shape, 16);
    let kept: Float32Array | null = null;
    dev.dispatch(1, 1, (wg) => {
      const q = wg.alloc(4), kv = wg.alloc(4);
      wg.load("K", 0, 0, 2, kv);
      wg.load("Q", 0, 0, 2, q);
      expect(() => wg.store("O", 0, 0, 1, [0, 0])).toThrow("store(O) of row 0 of head 0: K row 0 was not loaded by this workgroup since Q row 0 was");
      wg.load("K", 0, 0, 2, kv);
      wg.load("V", 0, 0, 2, kv);
      wg.store("L", 0, 0, 1, [0]);
      wg.load("Q", 0, 1, 2, q, 0); // overwrites Q row 0
      expect(() => wg.store("O", 0, 0, 1, [0, 0])).toThrow("store(O) of row 0 of head 0: Q row 0 is no longer in workgroup memory (overwritten by a later load)");
      kept = q;
    });
    expect(Number.isNaN(kept![0])).toBe(true);
    expect(dev.writes).toEqual({ O: 0, L: 1 });
    expect(() => createWorkgroupDevice(z(), shape, 0)).toThrow("capacity must be an integer >= 1, got 0");
  });
});
