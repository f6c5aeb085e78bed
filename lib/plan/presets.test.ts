import { describe, expect, it } from "vitest";
import { checkCluster, CLUSTER_PRESETS, clusterPreset, gpuPreset, GPU_PRESETS } from "./index.js";

describe("GPU and cluster presets", () => {
  it("carry the datasheet figures: A100 312 TFLOP/s dense, H100 SXM half of 1,979 with sparsity, 80 GiB", () => {
    expect(gpuPreset("a100-80gb").peakFlops16).toBe(312e12);
    expect(gpuPreset("h100-80gb").peakFlops16).toBe(1979e12 / 2);
    expect(gpuPreset("a100-80gb").memoryBytes).toBe(80 * 1024 ** 3);
    expect(GPU_PRESETS.every((g) => g.source.length > 0)).toBe(true);
  });
  it("a cluster preset is a fresh copy, valid, with the node's links", () => {
    const a = clusterPreset("64x-h100-80gb");
    a.nodes = 1;
    expect(clusterPreset("64x-h100-80gb").nodes).toBe(8);
    for (const p of CLUSTER_PRESETS) expect(checkCluster(clusterPreset(p.id))).toBeTruthy();
    expect(clusterPreset("8x-a100-80gb").intraNode.bandwidthBytesPerS).toBe(300e9);
  });
  it("unknown names and bad fields are errors that name them", () => {
    expect(() => gpuPreset("v100")).toThrow(/unknown GPU "v100"; known: a100-40gb/);
    expect(() => clusterPreset("dgx")).toThrow(RangeError);
    const c = clusterPreset("8x-a100-80gb");
    expect(() => checkCluster({ ...c, gpusPerNode: 0 })).toThrow(/cluster.gpusPerNode must be an integer >= 1, got 0/);
    expect(() => checkCluster({ ...c, gpu: { ...c.gpu, memoryBytes: Number.NaN } })).toThrow(/cluster.gpu.memoryBytes must be a finite number > 0, got NaN/);
    expect(() => checkCluster({ ...c, pcie: { alphaS: 0, bandwidthBytesPerS: -1 } })).toThrow(/cluster.pcie: /);
  });
});
