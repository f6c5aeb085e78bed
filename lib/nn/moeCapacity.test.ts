import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { expertCapacity, applyCapacity } from "./moeCapacity.js";
import { topKRouting } from "./moeRouting.js";
import { mulberry32 } from "../random.js";

/** A routing in which token t's logits are one-hot on expert ids[t] (k = 1), with a given gate order. */
function routeTo(ids: number[], E: number, strength: number[] = ids.map(() => 1)) {
  const l = new Float32Array(ids.length * E);
  ids.forEach((e, t) => { l[t * E + e] = strength[t]; });
  return topKRouting(l, ids.length, E, 1, "softmax-topk");
}

describe("expertCapacity", () => {
  it("expertCapacity(T, E, k, CF) = ⌈T·k/E · CF⌉ (Megatron get_capacity(T·k, E, CF))", () => {
    expect(expertCapacity(4096, 8, 2, 1.25)).toBe(1280);
    expect(expertCapacity(6, 3, 1, 1)).toBe(2);
    expect(expertCapacity(6, 3, 1, 1.5)).toBe(3);
    expect(expertCapacity(10, 4, 1, 1)).toBe(3); // 2.5 rounds up
    expect(expertCapacity(0, 4, 2, 2)).toBe(0);
  });
  it("expertCapacity with CF = 1 and T·k divisible by E is the even share T·k/E (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 500 }), (E, k0, m) => {
      const k = 1 + (k0 % E), T = m * E;
      expect(expertCapacity(T, E, k, 1)).toBe(m * k);
    }));
  });
  it("expertCapacity rejects bad inputs, naming the field", () => {
    expect(() => expertCapacity(4, 2, 1, 0)).toThrow("capacityFactor must be a finite number > 0, got 0");
    expect(() => expertCapacity(-1, 2, 1, 1)).toThrow("numTokens must be an integer >= 0, got -1");
    expect(() => expertCapacity(4, 8, 9, 1)).toThrow("topK must be an integer in [1, numExperts = 8], got 9");
  });
});

describe("applyCapacity", () => {
  it("applyCapacity 'position' keeps the first tokens in token order; 'probs' the largest gates", () => {
    // tokens 0..3 all to expert 0, gates growing with t: position keeps 0, 1; probs keeps 3, 2
    const r = routeTo([0, 0, 0, 0, 1], 2, [1, 2, 3, 4, 1]);
    expect(Array.from(applyCapacity(r, 2, "position"))).toEqual([1, 1, 0, 0, 1]);
    expect(Array.from(applyCapacity(r, 2, "probs"))).toEqual([0, 0, 1, 1, 1]);
  });
  it("applyCapacity 'probs' breaks equal gates toward the lower token index", () => {
    const r = routeTo([0, 0, 0], 2);
    expect(Array.from(applyCapacity(r, 1, "probs"))).toEqual([1, 0, 0]);
  });
  it("applyCapacity boundaries: capacity exactly full drops nothing, one less drops one; an expert with no token; capacity 0 drops all", () => {
    const r = routeTo([0, 0, 2, 2, 2], 3);
    expect(Array.from(applyCapacity(r, 3))).toEqual([1, 1, 1, 1, 1]);
    expect(Array.from(applyCapacity(r, 2))).toEqual([1, 1, 1, 1, 0]);
    expect(Array.from(applyCapacity(r, 0))).toEqual([0, 0, 0, 0, 0]);
    expect(Array.from(applyCapacity(r, Infinity))).toEqual([1, 1, 1, 1, 1]);
  });
  it("applyCapacity keeps min(routed, capacity) pairs per expert (property, k up to E)", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 0, max: 6 }), fc.constantFrom("position", "probs"), (seed, C, policy) => {
      const rng = mulberry32(seed), E = 1 + Math.floor(rng() * 6), k = 1 + Math.floor(rng() * E), N = Math.floor(rng() * 20);
      const r = topKRouting(Float32Array.from({ length: N * E }, () => Math.round(rng() * 4)), N, E, k, "topk-softmax");
      const kept = applyCapacity(r, C, policy as "position" | "probs");
      for (let e = 0; e < E; e++) {
        const routed = Array.from(r.experts).filter((x) => x === e).length;
        const keptE = Array.from(r.experts).filter((x, s) => x === e && kept[s]).length;
        expect(keptE).toBe(Math.min(routed, C));
      }
    }));
  });
  it("applyCapacity rejects fractional capacities and unknown policies", () => {
    const r = routeTo([0], 1);
    expect(() => applyCapacity(r, 1.5)).toThrow("capacity must be an integer >= 0 or Infinity, got 1.5");
    expect(() => applyCapacity(r, 1, "x" as "probs")).toThrow('policy must be "position" or "probs", got "x"');
  });
});
