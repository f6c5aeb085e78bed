import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { loadImbalance, modelParameters, trainMoeDemo, MOE_COMPARISON, BALANCING_RUNS } from "./moeDemos.js";
import { EpComm } from "./EpComm.js";
import { createModel, DEFAULT_MODEL } from "../nn/index.js";

describe("loadImbalance", () => {
  it("loadImbalance([4, 2, 1, 1]) is 2; balanced is 1; one expert taking all is E", () => {
    expect(loadImbalance([4, 2, 1, 1])).toBe(2);
    expect(loadImbalance([3, 3, 3])).toBe(1);
    expect(loadImbalance([0, 0, 8, 0])).toBe(4);
    expect(loadImbalance([0, 0])).toBe(1);
  });
  it("loadImbalance lies in [1, E] (property)", () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 16 }), (c) => {
      const v = loadImbalance(c);
      expect(v).toBeGreaterThanOrEqual(1);
      expect(v).toBeLessThanOrEqual(c.length + 1e-12);
    }));
  });
});

describe("modelParameters", () => {
  it("modelParameters of the comparison's models: equal active width, the MoE's total larger by its idle experts (worked by hand)", () => {
    const V = 40, h = DEFAULT_MODEL.width, C = DEFAULT_MODEL.contextLength, d = DEFAULT_MODEL.embedDim;
    const common = V * d + (C * d * h + h) + (h * V + V); // embedding, projection, head
    const dense = modelParameters(createModel({ ...DEFAULT_MODEL, ...MOE_COMPARISON[0].model, vocabSize: V }));
    expect(dense).toEqual({ total: common + 2 * (h * 64 + 64 + 64 * h + h), active: common + 2 * (h * 64 + 64 + 64 * h + h) });
    const moe = modelParameters(createModel({ ...DEFAULT_MODEL, ...MOE_COMPARISON[1].model, vocabSize: V }));
    const expert = h * 32 + 32 + 32 * h + h;
    expect(moe.total).toBe(common + 2 * (h * 8 + 8 * expert));
    expect(moe.active).toBe(common + 2 * (h * 8 + 2 * expert)); // the router, and 2 of 8 experts
  });
  it("trainMoeDemo trains each page demo for a few steps and reports the first block's counts", () => {
    const r = trainMoeDemo(BALANCING_RUNS[3], 3);
    expect(r.losses).toHaveLength(3);
    expect(r.routed).toHaveLength(3);
    expect(r.routed[0].reduce((a, b) => a + b, 0)).toBe(8 * 16); // 8 × 16 tokens, top-1
    expect(() => trainMoeDemo(BALANCING_RUNS[0], 0)).toThrow("steps must be an integer >= 1, got 0");
  });
});

describe("EpComm", () => {
  it("EpComm.allToAll logs every call with its label, bytes and inter-node share", () => {
    const g = new EpComm(2, { alphaS: 0, bandwidthBytesPerS: 8 }, 4, { ranksPerNode: 1, interNodeBandwidthBytesPerS: 4 });
    const out = g.allToAll([Float32Array.of(1, 2), Float32Array.of(3)], [[1, 1], [0, 1]], "dispatch");
    expect(out).toEqual([Float32Array.of(1), Float32Array.of(2, 3)]);
    expect(g.log).toHaveLength(1);
    expect(g.log[0]).toMatchObject({ label: "dispatch", bytes: 4, interNodeBytes: 4, timeS: 1 });
    expect(() => new EpComm(0)).toThrow("P must be an integer >= 1, got 0");
    expect(() => g.allToAll([Float32Array.of(1)], [[1]])).toThrow("inputs must hold one buffer per rank (P = 2), got 1");
  });
});
