import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { diagnoseDispatch } from "./diagnoseDispatch.js";
import { planDispatch } from "./planDispatch.js";
import { EpComm } from "./EpComm.js";
import { mulberry32 } from "../random.js";

describe("diagnoseDispatch", () => {
  it("diagnoseDispatch worked example: one token sent to rank 0 while balance would send half a token", () => {
    const d = diagnoseDispatch([{ sender: 1, receiver: 0, bytes: 8, t: 0, tEnd: 1 }], { numRanks: 2, tokensPerRank: 1, topK: 1, hiddenSize: 2, bytesPerElement: 4, cost: { alphaS: 0, bandwidthBytesPerS: 8 } });
    expect(d).toEqual({ receivedPerRank: [2, 0], hotRank: 0, slowdown: 2 });
  });
  it("diagnoseDispatch recovers each rank's load (its own tokens included) from a simulated dispatch with a collapsed router (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e6 }), fc.constantFrom(1, 2, 4), (seed, g) => {
      const rng = mulberry32(seed), P = 4, L = 2, E = P * L, k = 2, N = 6, h = 3;
      const hot = Math.floor(rng() * E);
      // a collapsed router: every token's first choice is the hot expert
      const routings = Array.from({ length: P }, () => {
        const experts: number[] = [];
        for (let t = 0; t < N; t++) { const other = (hot + 1 + Math.floor(rng() * (E - 1))) % E; experts.push(hot, other); }
        return { experts, gates: experts.map(() => 0.5) };
      });
      const plan = planDispatch(routings, { numExperts: E, topK: k, epSize: P, capacityFactor: null, dropPolicy: "position", hiddenSize: h });
      const topology = { ranksPerNode: g, interNodeBandwidthBytesPerS: 1e8 }, cost = { alphaS: 1e-6, bandwidthBytesPerS: 4e8 };
      const comm = new EpComm(P, cost, 4, topology);
      comm.allToAll(plan.sendOrder.map((o) => new Float32Array(o.length * h)), plan.splits.map((row) => row.map((n) => n * h)), "dispatch");
      const d = diagnoseDispatch(comm.log[0].events, { numRanks: P, tokensPerRank: N, topK: k, hiddenSize: h, bytesPerElement: 4, cost, topology });
      expect(d.receivedPerRank).toEqual(plan.splits[0].map((_, r) => plan.splits.reduce((s, row) => s + row[r], 0)));
      expect(d.hotRank).toBe(Math.floor(hot / L));
      expect(d.slowdown).toBeGreaterThan(1);
    }), { numRuns: 40 });
  });
  it("diagnoseDispatch: no message and nothing to send gives slowdown 1; malformed messages throw", () => {
    const s = { numRanks: 1, tokensPerRank: 3, topK: 1, hiddenSize: 2, bytesPerElement: 4, cost: { alphaS: 0, bandwidthBytesPerS: 1 } };
    expect(diagnoseDispatch([], s)).toEqual({ receivedPerRank: [3], hotRank: 0, slowdown: 1 });
    expect(() => diagnoseDispatch([{ sender: 5, receiver: 0, bytes: 8, t: 0, tEnd: 1 }], { ...s, numRanks: 4 })).toThrow("messages[0]: sender 5 out of [0, 4)");
    expect(() => diagnoseDispatch([{ sender: 1, receiver: 0, bytes: 10, t: 0, tEnd: 1 }], { ...s, numRanks: 2, hiddenSize: 4 })).toThrow("messages[0] carries 10 bytes, not a whole number of tokens of 16 bytes");
  });
});
