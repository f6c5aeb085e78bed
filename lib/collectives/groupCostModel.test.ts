import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { achievedLink, collectiveCost, groupCostModel, linkCostModel, membersPerNode, NCCL_BUS_EFFICIENCY, type NodeTopology } from "./index.js";

const dgxA100: NodeTopology = { gpusPerNode: 8, intraNode: linkCostModel("a100-nvswitch"), interNodePerGpu: linkCostModel("net-200g") };

describe("groupCostModel (the multi-adapter rule)", () => {
  it("worked example: 16 GPUs on two DGX A100 run at 8 adapters × 25 GB/s = 200 GB/s, not one adapter's 25 GB/s", () => {
    expect(groupCostModel(dgxA100, 16, 8).bandwidthBytesPerS).toBe(200e9);
    expect(groupCostModel(dgxA100, 8, 8)).toEqual({ alphaS: 5e-6, bandwidthBytesPerS: 300e9 }); // one node: the node's link
    expect(groupCostModel(dgxA100, 32, 1).bandwidthBytesPerS).toBe(25e9); // one member per node: its own adapter
  });
  it("published figure: two nodes of 8 A100 with 4 × HDR (a 100 Gb/s share per GPU) predict a bus bandwidth of 96 GB/s at NCCL's efficiency; nccl-tests measured 86–91", () => {
    const topo: NodeTopology = { gpusPerNode: 8, intraNode: achievedLink(linkCostModel("a100-nvswitch"), NCCL_BUS_EFFICIENCY.nvlink), interNodePerGpu: achievedLink(linkCostModel("net-100g"), NCCL_BUS_EFFICIENCY.network) };
    const link = groupCostModel(topo, 16, 8);
    // Bus bandwidth of a large all-reduce: bytes × 2(n−1)/n over its time (nccl-tests PERFORMANCE.md).
    const S = 4e9, n = 16;
    const busbw = (S * 2 * (n - 1) / n) / collectiveCost("ring-all-reduce", S / 4, n, link).timeS;
    expect(busbw / 1e9).toBeGreaterThan(86 * 0.95);
    expect(busbw / 1e9).toBeLessThan(100);
    // A DGX A100 pair with 8 × 200 Gb/s: 192 GB/s measured (NVIDIA/nccl#1576).
    const eight = groupCostModel({ ...topo, interNodePerGpu: achievedLink(linkCostModel("net-200g"), NCCL_BUS_EFFICIENCY.network) }, 16, 8);
    expect(eight.bandwidthBytesPerS / 1e9).toBeCloseTo(192, 6);
  });
  it("property: never faster than the node's link, never slower than one adapter, and monotone in the members per node", () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 512 }), fc.integer({ min: 1, max: 8 }), (n, g0) => {
      const g = Math.min(g0, n);
      const b = groupCostModel(dgxA100, n, g).bandwidthBytesPerS;
      expect(b).toBeLessThanOrEqual(300e9);
      expect(b).toBeGreaterThanOrEqual(25e9);
      if (g > 1 && n > g) expect(groupCostModel(dgxA100, n, g - 1).bandwidthBytesPerS).toBeLessThanOrEqual(b);
    }));
  });
  it("bad input names the field", () => {
    expect(() => groupCostModel(dgxA100, 0, 1)).toThrow(/^groupSize must be an integer >= 1, got 0$/);
    expect(() => groupCostModel(dgxA100, 16, 9)).toThrow(/^membersPerNode must be an integer from 1 to 8, got 9$/);
    expect(() => groupCostModel({ ...dgxA100, interNodePerGpu: { alphaS: 0, bandwidthBytesPerS: -1 } }, 16, 8)).toThrow(/^interNodePerGpu: bandwidthBytesPerS must be a finite number > 0, got -1$/);
  });
});

describe("membersPerNode", () => {
  it("Megatron's order: tensor-parallel ranks adjacent, data-parallel ranks t apart", () => {
    expect(membersPerNode(8, 1, 8)).toBe(8); // a tensor-parallel group of 8 fills a node
    expect(membersPerNode(32, 8, 8)).toBe(1); // d = 32 with t = 8: one per node
    expect(membersPerNode(16, 2, 8)).toBe(4);
    expect(membersPerNode(3, 1, 8)).toBe(3);
    expect(() => membersPerNode(4, 0, 8)).toThrow(/^stride must be an integer >= 1, got 0$/);
  });
});

describe("achievedLink and NCCL_BUS_EFFICIENCY", () => {
  it("scales the bandwidth, keeps α; the H100 NVLink figure is 370 of 450 GB/s", () => {
    expect(achievedLink({ alphaS: 5e-6, bandwidthBytesPerS: 300e9 }, 0.8)).toEqual({ alphaS: 5e-6, bandwidthBytesPerS: 240e9 });
    expect(Math.abs(450 * NCCL_BUS_EFFICIENCY.nvlink - 370) / 370).toBeLessThan(0.03); // 360 against 370 (H100), 240 against 232.5 (A100)
    expect(Math.abs(300 * NCCL_BUS_EFFICIENCY.nvlink - 232.54) / 232.54).toBeLessThan(0.04);
    expect(() => achievedLink({ alphaS: 0, bandwidthBytesPerS: 1 }, 0)).toThrow(/^efficiency must be in \(0, 1\], got 0$/);
  });
});
