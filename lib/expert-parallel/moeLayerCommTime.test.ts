import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { moeLayerCommTime } from "./moeLayerCommTime.js";
import { EpComm } from "./EpComm.js";

describe("moeLayerCommTime", () => {
  it("moeLayerCommTime worked example: Mixtral's shape (h 4096, k 2), 4096 tokens, EP 8 in one H100 node, bf16", () => {
    const c = moeLayerCommTime({ tokens: 4096, hiddenSize: 4096, topK: 2, epSize: 8, bytesPerElement: 2, cost: { alphaS: 5e-6, bandwidthBytesPerS: 450e9 } });
    expect(c.dispatchBytesPerRank).toBe((7 / 8) * 2 * 4096 * 4096 * 2);
    expect(c.allToAllS).toBeCloseTo(5e-6 + c.dispatchBytesPerRank / 450e9, 15);
    expect(c.stepS).toBeCloseTo(4 * c.allToAllS, 15);
    expect(c.interNodeBytesPerRank).toBe(0);
  });
  it("moeLayerCommTime equals the simulated all-to-all of an evenly routed micro-batch (oracle: the World)", () => {
    fc.assert(fc.property(fc.constantFrom(2, 4, 8), fc.constantFrom(1, 2, 4), fc.integer({ min: 1, max: 4 }), (P, g, m) => {
      if (g > P) return;
      const tokens = P * m, h = 2, k = 1, topology = { ranksPerNode: g, interNodeBandwidthBytesPerS: 1e8 }, cost = { alphaS: 1e-6, bandwidthBytesPerS: 3e8 };
      const comm = new EpComm(P, cost, 4, topology);
      const splits = Array.from({ length: P }, () => new Array(P).fill(m * h));
      comm.allToAll(Array.from({ length: P }, () => new Float32Array(tokens * h)), splits);
      const c = moeLayerCommTime({ tokens, hiddenSize: h, topK: k, epSize: P, bytesPerElement: 4, cost, topology });
      expect(c.allToAllS).toBeCloseTo(comm.log[0].timeS, 15);
      expect(c.dispatchBytesPerRank * P).toBeCloseTo(comm.log[0].bytes, 6);
      expect(c.interNodeBytesPerRank * P).toBeCloseTo(comm.log[0].interNodeBytes, 6);
    }));
  });
  it("moeLayerCommTime rejects negative sizes", () => {
    expect(() => moeLayerCommTime({ tokens: -1, hiddenSize: 1, topK: 1, epSize: 1, bytesPerElement: 2, cost: { alphaS: 0, bandwidthBytesPerS: 1 } })).toThrow("tokens must be an integer >= 0, got -1");
  });
});
