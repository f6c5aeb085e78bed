import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { accumulationCommunication } from "./accumulationCommunication.js";

describe("accumulationCommunication", () => {
  it("accumulationCommunication: worked example, 4 MB of gradients on 4 ranks, K = 8", () => {
    // ring all-reduce: each rank sends 2·(R−1)/R of the buffer = 2·3/4·4e6 = 6e6 bytes (Patarasuk & Yuan 2009)
    expect(accumulationCommunication({ gradientBytes: 4e6, numRanks: 4, microBatches: 8, noSync: true })).toEqual({ allReduces: 1, bytesSentPerRank: 6e6 });
    expect(accumulationCommunication({ gradientBytes: 4e6, numRanks: 4, microBatches: 8, noSync: false })).toEqual({ allReduces: 8, bytesSentPerRank: 4.8e7 });
  });
  it("accumulationCommunication: one rank sends nothing; K = 1 is the same with or without no_sync", () => {
    expect(accumulationCommunication({ gradientBytes: 4e6, numRanks: 1, microBatches: 8, noSync: false }).bytesSentPerRank).toBe(0);
    expect(accumulationCommunication({ gradientBytes: 10, numRanks: 2, microBatches: 1, noSync: false })).toEqual(accumulationCommunication({ gradientBytes: 10, numRanks: 2, microBatches: 1, noSync: true }));
  });
  it("accumulationCommunication without no_sync costs exactly K times the traffic with it", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 32 }), (bytes, R, K) => {
      const on = accumulationCommunication({ gradientBytes: bytes, numRanks: R, microBatches: K, noSync: true });
      const off = accumulationCommunication({ gradientBytes: bytes, numRanks: R, microBatches: K, noSync: false });
      expect(off.allReduces).toBe(K * on.allReduces);
      expect(off.bytesSentPerRank).toBeCloseTo(K * on.bytesSentPerRank, 6);
    }));
  });
  it("accumulationCommunication rejects bad settings by name", () => {
    expect(() => accumulationCommunication({ gradientBytes: -1, numRanks: 2, microBatches: 2, noSync: true })).toThrow(/gradientBytes must be a number >= 0, got -1/);
    expect(() => accumulationCommunication({ gradientBytes: 1, numRanks: 0, microBatches: 2, noSync: true })).toThrow(/numRanks must be an integer >= 1, got 0/);
    expect(() => accumulationCommunication({ gradientBytes: 1, numRanks: 2, microBatches: 1.5, noSync: true })).toThrow(RangeError);
  });
});
