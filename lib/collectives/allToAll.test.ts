import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { allToAll } from "./allToAll.js";
import { allToAllCost, uniformAllToAllCost, allToAllLinks } from "./allToAllCost.js";
import { groupCostModel } from "./groupCostModel.js";
import { World } from "./World.js";
import { mulberry32 } from "../random.js";

const F = (...xs: number[]) => Float32Array.from(xs);
const cost = { alphaS: 1e-6, bandwidthBytesPerS: 1e9 };

/** The definition: rank d receives, in sender order, segment d of every sender's input. */
function transpose(inputs: number[][], splits: number[][]): number[][] {
  const P = inputs.length;
  return Array.from({ length: P }, (_, d) => inputs.flatMap((x, r) => {
    const start = splits[r].slice(0, d).reduce((s, v) => s + v, 0);
    return x.slice(start, start + splits[r][d]);
  }));
}

const table = fc.integer({ min: 1, max: 6 }).chain((P) => fc.array(fc.array(fc.integer({ min: 0, max: 5 }), { minLength: P, maxLength: P }), { minLength: P, maxLength: P }));

describe("allToAll", () => {
  it("allToAll(inputs, splits) worked example: rank 0 sends [1] to itself and [2, 3] to rank 1; rank 1 sends [4] and [5]", () => {
    const r = allToAll([[1, 2, 3], [4, 5]], [[1, 2], [1, 1]], { cost: { alphaS: 0, bandwidthBytesPerS: 4 } });
    expect(r.result).toEqual([F(1, 4), F(2, 3, 5)]);
    // rank 0 sends 2 elements (8 bytes) and receives 1; rank 1 sends 1 and receives 2: 8 bytes at 4 B/s
    expect(r.timeS).toBe(2);
    expect(r.events.map((e) => [e.sender, e.receiver, e.offset, e.length, e.receiverOffset])).toEqual([[0, 1, 1, 2, 0], [1, 0, 0, 1, 1]]);
    expect(r.bytesSentPerRank).toEqual([8, 4]);
  });

  it("allToAll leaves every rank the segments addressed to it, in sender order (random tables)", () => {
    fc.assert(fc.property(table, fc.integer({ min: 0, max: 1e6 }), (splits, seed) => {
      const rng = mulberry32(seed);
      const inputs = splits.map((row) => Array.from({ length: row.reduce((s, v) => s + v, 0) }, () => Math.round(rng() * 100)));
      const before = inputs.map((x) => x.slice());
      const r = allToAll(inputs, splits);
      expect(r.result.map((x) => Array.from(x))).toEqual(transpose(inputs, splits));
      expect(inputs).toEqual(before);
    }), { numRuns: 60 });
  });

  it("allToAllCost equals what the simulated World measures, with and without nodes", () => {
    fc.assert(fc.property(table, fc.integer({ min: 1, max: 4 }), (splits, g) => {
      const topology = { ranksPerNode: g, interNodeBandwidthBytesPerS: 2.5e8 };
      const inputs = splits.map((row) => new Array(row.reduce((s, v) => s + v, 0)).fill(1));
      for (const t of [undefined, topology]) {
        const sim = allToAll(inputs, splits, { cost, topology: t });
        const closed = allToAllCost(splits, cost, 4, t);
        expect(closed.timeS).toBeCloseTo(sim.timeS, 15);
        expect(closed.totalBytes).toBe(sim.bytesSentPerRank.reduce((s, v) => s + v, 0));
        expect(closed.maxBytesSentPerRank).toBe(Math.max(...sim.bytesSentPerRank));
        expect(closed.interNodeBytes).toBe(sim.events.filter((e) => e.interNode).reduce((s, e) => s + e.bytes, 0));
      }
    }), { numRuns: 60 });
  });

  it("allToAll edge cases: one rank, empty segments, a rank that sends nothing", () => {
    expect(allToAll([[7, 8]], [[2]]).result).toEqual([F(7, 8)]);
    expect(allToAll([[7, 8]], [[2]]).events).toHaveLength(0);
    const r = allToAll([[], [1, 2]], [[0, 0], [2, 0]]);
    expect(r.result).toEqual([F(1, 2), F()]);
    expect(allToAll([[], []], [[0, 0], [0, 0]]).timeS).toBe(0);
  });

  it("allToAll rejects a table of the wrong shape, negative counts and inputs that do not match their row", () => {
    expect(() => allToAll([[1], [2]], [[1, 0]])).toThrow("splits must be a P×P table of integers >= 0 (P = 2), got 1 rows");
    expect(() => allToAll([[1], [2]], [[1, 0], [0, 1, 0]])).toThrow("splits[1] must have 2 entries, got 3");
    expect(() => allToAll([[1], [2]], [[1, 0], [-1, 2]])).toThrow("splits[1][0] must be an integer >= 0, got -1");
    expect(() => allToAll([[1], [2, 3, 4]], [[1, 0], [2, 2]])).toThrow("inputs[1] has 3 elements but splits[1] sums to 4");
  });
});

describe("uniformAllToAllCost", () => {
  it("uniformAllToAllCost(S, P) inside one node sends (P−1)/P·S per rank (NCCL's all-to-all bus factor)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 1e9 }), (P, S) => {
      const c = uniformAllToAllCost(S, P, { alphaS: 0, bandwidthBytesPerS: 1e9 });
      expect(c.maxBytesSentPerRank).toBeCloseTo(((P - 1) / P) * S, 3);
      expect(c.timeS).toBeCloseTo(P === 1 ? 0 : ((P - 1) / P) * S / 1e9, 12);
    }));
  });

  it("uniformAllToAllCost equals allToAllCost of the even table, across nodes too", () => {
    for (const [P, g] of [[8, 8], [16, 8], [32, 8], [4, 2], [6, 3]]) {
      const n = 4 * P; // elements each rank sends: 4 to every rank
      const splits = Array.from({ length: P }, () => new Array(P).fill(4));
      const topology = { ranksPerNode: g, interNodeBandwidthBytesPerS: 50e9 };
      const even = allToAllCost(splits, { alphaS: 5e-6, bandwidthBytesPerS: 160e9 }, 2, topology);
      const closed = uniformAllToAllCost(n * 2, P, { alphaS: 5e-6, bandwidthBytesPerS: 160e9 }, topology);
      expect(closed.timeS).toBeCloseTo(even.timeS, 15);
      expect(closed.interNodeBytes).toBeCloseTo(even.interNodeBytes, 6);
      expect(closed.totalBytes).toBeCloseTo(even.totalBytes, 6);
    }
  });

  it("published figures: with DeepSeek-V3's links (NVLink 160 GB/s, InfiniBand 50 GB/s) EP over 2 nodes of 8 is network-bound", () => {
    // DeepSeek-V3 Technical Report §3.2.2: IB 50 GB/s, NVLink 160 GB/s (a 3.2× gap). 16 ranks, 8 per node:
    // 7/16 of S on NVLink, 8/16 of S on IB → the IB term 8S/(16·50e9) is the larger one.
    const S = 1e9, t = uniformAllToAllCost(S, 16, { alphaS: 0, bandwidthBytesPerS: 160e9 }, { ranksPerNode: 8, interNodeBandwidthBytesPerS: 50e9 });
    expect(t.timeS).toBeCloseTo((8 / 16) * S / 50e9, 15);
    expect(t.interNodeBytes / t.totalBytes).toBeCloseTo(8 / 15, 12);
  });

  it("uniformAllToAllCost rejects ranks that do not fill whole nodes and negative sizes", () => {
    expect(() => uniformAllToAllCost(1, 12, cost, { ranksPerNode: 8, interNodeBandwidthBytesPerS: 1 })).toThrow("numRanks (12) must be a multiple of topology.ranksPerNode (8) when it exceeds it");
    expect(() => uniformAllToAllCost(-1, 2, cost)).toThrow("bytesPerRank must be a finite number >= 0, got -1");
  });
});

describe("World with a topology", () => {
  it("World.step times bytes inside and between nodes on separate links, and marks inter-node events", () => {
    const w = new World([F(1, 1), F(2, 2), F(3, 3), F(4, 4)], { alphaS: 0, bandwidthBytesPerS: 16 }, { topology: { ranksPerNode: 2, interNodeBandwidthBytesPerS: 4 } });
    // 0 → 1 inside node 0 (8 bytes at 16 B/s = 0.5 s), 0 → 2 across (8 bytes at 4 B/s = 2 s): the step lasts 2 s
    const d = w.step("send", [
      { sender: 0, receiver: 1, chunk: 0, offset: 0, length: 2, op: "copy" },
      { sender: 0, receiver: 2, chunk: 0, offset: 0, length: 2, op: "copy" },
    ]);
    expect(d).toBe(2);
    expect(w.events.map((e) => e.interNode)).toEqual([false, true]);
  });

  it("World.step lands a message at its receiverOffset", () => {
    const w = new World([F(1, 2, 3), F(0, 0, 0)], { alphaS: 0, bandwidthBytesPerS: 4 });
    w.step("all-to-all", [{ sender: 0, receiver: 1, chunk: 1, offset: 0, length: 2, op: "copy", receiverOffset: 1 }]);
    expect(w.buffers[1]).toEqual(F(0, 1, 2));
    expect(() => w.step("send", [{ sender: 0, receiver: 1, chunk: 1, offset: 0, length: 2, op: "copy", receiverOffset: 2 }])).toThrow("message 0 → 1 lands at 2..4, outside the buffer of 3 elements");
  });

  it("new World rejects a bad topology", () => {
    expect(() => new World([F(1)], cost, { topology: { ranksPerNode: 0, interNodeBandwidthBytesPerS: 1 } })).toThrow("topology.ranksPerNode must be an integer >= 1, got 0");
    expect(() => new World([F(1)], cost, { topology: { ranksPerNode: 1, interNodeBandwidthBytesPerS: 0 } })).toThrow("topology.interNodeBandwidthBytesPerS must be a finite number > 0, got 0");
  });
});

describe("allToAllLinks", () => {
  const cluster = { gpusPerNode: 8, intraNode: { alphaS: 5e-6, bandwidthBytesPerS: 450e9 }, interNodePerGpu: { alphaS: 5e-6, bandwidthBytesPerS: 50e9 } };
  it("allToAllLinks gives the World one adapter per rank between nodes and the node's link inside", () => {
    expect(allToAllLinks(cluster)).toEqual({ cost: { alphaS: 5e-6, bandwidthBytesPerS: 450e9 }, topology: { ranksPerNode: 8, interNodeBandwidthBytesPerS: 50e9 } });
  });
  it("allToAllLinks agrees with the planner's rule: a node's adapters carry G·B_nic together, as a ring through all G of them does", () => {
    // 2 nodes × 8 ranks, every rank sends 1 MB to its peer on the other node (same local index): 8 adapters busy at once
    const { cost, topology } = allToAllLinks(cluster);
    const splits = Array.from({ length: 16 }, (_, r) => Array.from({ length: 16 }, (_, d) => (d === (r + 8) % 16 ? 250000 : 0)));
    const a2a = allToAllCost(splits, cost, 4, topology);
    const nodeBytes = 8 * 250000 * 4;
    const ring = groupCostModel(cluster, 16, 8); // min(450, 8 × 50) GB/s
    expect(a2a.timeS).toBeCloseTo(cost.alphaS + nodeBytes / ring.bandwidthBytesPerS, 12);
  });
  it("allToAllLinks rejects a bad cluster", () => {
    expect(() => allToAllLinks({ ...cluster, gpusPerNode: 0 })).toThrow("gpusPerNode must be an integer >= 1, got 0");
  });
});
