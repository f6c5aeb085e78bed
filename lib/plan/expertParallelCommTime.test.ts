import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { achievedLink, NCCL_BUS_EFFICIENCY, linkCostModel } from "../collectives/index.js";
import { expertParallelCommTime } from "./expertParallelCommTime.js";

const topology = { gpusPerNode: 8, intraNode: achievedLink(linkCostModel("h100-nvswitch"), NCCL_BUS_EFFICIENCY.nvlink), interNodePerGpu: achievedLink(linkCostModel("net-400g"), NCCL_BUS_EFFICIENCY.network) };
const o = { tokens: 4096, hiddenSize: 4096, topK: 2, expertParallel: 8, stride: 1, topology, moeLayers: 32, bytesPerElement: 2, fullRecompute: false };

describe("expertParallelCommTime", () => {
  it("worked example: Mixtral's dispatch on 8 ranks of a node sends 7/8 of 2·4096·4096·2 bytes per rank", () => {
    const r = expertParallelCommTime(o);
    expect(r.layer.dispatchBytesPerRank).toBe((7 / 8) * 2 * 4096 * 4096 * 2);
    expect(r.perMicroBatchS).toBeCloseTo(32 * r.layer.stepS, 12);
  });
  it("edge cases: full recomputation adds the forward all-to-alls again; negative tokens throw", () => {
    const r = expertParallelCommTime(o), f = expertParallelCommTime({ ...o, fullRecompute: true });
    expect(f.perMicroBatchS).toBeCloseTo(32 * (r.layer.stepS + r.layer.forwardS), 12);
    expect(() => expertParallelCommTime({ ...o, tokens: -1 })).toThrow(RangeError);
  });
  it("oracle: a group that leaves the node (stride 8: one member per node) is slower than one inside it, by about NVLink over the adapter", () => {
    const inside = expertParallelCommTime(o).perMicroBatchS, across = expertParallelCommTime({ ...o, stride: 8 }).perMicroBatchS;
    expect(across / inside).toBeGreaterThan(3);
  });
  it("property: seconds grow with the tokens and the MoE layers, and are ≥ 0", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 16384 }), fc.integer({ min: 1, max: 64 }), fc.constantFrom(2, 4, 8, 16, 32), (n, L, ep) => {
      const a = expertParallelCommTime({ ...o, tokens: n, moeLayers: L, expertParallel: ep }).perMicroBatchS;
      expect(a).toBeGreaterThanOrEqual(0);
      expect(expertParallelCommTime({ ...o, tokens: 2 * n, moeLayers: L, expertParallel: ep }).perMicroBatchS).toBeGreaterThanOrEqual(a);
      expect(expertParallelCommTime({ ...o, tokens: n, moeLayers: L + 1, expertParallel: ep }).perMicroBatchS).toBeGreaterThan(a);
    }), { numRuns: 50 });
  });
});
