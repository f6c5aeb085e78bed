import { describe, expect, it } from "vitest";
import { checkCluster, CLUSTER_PRESETS, clusterOf, clusterPreset, gpuPreset, gpuRoofline, GPU_PRESETS } from "./index.js";

describe("GPU and cluster presets", () => {
  it("carry the datasheet figures: A100 312 TFLOP/s dense, H100 SXM half of 1,979 with sparsity, 80 GiB", () => {
    expect(gpuPreset("a100-80gb").peakFlops16).toBe(312e12);
    expect(gpuPreset("h100-80gb").peakFlops16).toBe(1979e12 / 2);
    expect(gpuPreset("a100-80gb").memoryBytes).toBe(80 * 1024 ** 3);
    expect(GPU_PRESETS.every((g) => g.source.length > 0)).toBe(true);
  });
  it("every GPU carries dense peaks by data type, HBM bandwidth, SMs and cited efficiencies: the H200 is an H100 with 141 GiB at 4.8 TB/s", () => {
    const h100 = gpuPreset("h100-80gb"), h200 = gpuPreset("h200-141gb");
    expect(h200.peakFlops).toEqual(h100.peakFlops);
    expect([h200.memoryBytes / 1024 ** 3, h200.hbmBytesPerS]).toEqual([141, 4.8e12]);
    expect(gpuPreset("b200-180gb").peakFlops.bf16).toBe(2250e12);
    expect(gpuPreset("mi300x-192gb").peakFlops.fp8! / gpuPreset("mi300x-192gb").peakFlops.bf16).toBeCloseTo(2, 3); // 2,614.9 and 1,307.4 as printed
    expect(gpuPreset("a100-80gb").peakFlops.fp8).toBeUndefined(); // Ampere has no fp8
    for (const g of GPU_PRESETS) {
      expect(g.peakFlops.tf32, g.id).toBeLessThan(g.peakFlops.bf16);
      expect(g.peakFlops.fp32, g.id).toBeLessThanOrEqual(g.peakFlops.tf32);
      expect(g.matmulEfficiency.fraction, g.id).toBeGreaterThan(0.5);
      expect(g.matmulEfficiency.fraction, g.id).toBeLessThan(0.9);
      expect(g.matmulEfficiency.source.length + g.attentionEfficiency.source.length, g.id).toBeGreaterThan(40);
    }
    // The MAMF measurements: A100 271.2, H100 794.5, B200 1,745, MI300X 668.4 TFLOP/s.
    expect(gpuPreset("a100-80gb").matmulEfficiency.fraction * 312).toBeCloseTo(271.2, 6);
    expect(gpuPreset("mi300x-192gb").matmulEfficiency.fraction * 1307.4).toBeCloseTo(668.4, 6);
  });
  it("gpuRoofline: bf16 and fp16 on the tensor cores, fp32 on the CUDA cores (PyTorch leaves TF32 off for matmuls)", () => {
    const g = gpuPreset("a100-80gb");
    expect(gpuRoofline(g, "bf16").peakFlops).toBe(312e12);
    expect(gpuRoofline(g, "fp32").peakFlops).toBe(19.5e12);
    expect(gpuRoofline(g, "bf16").hbmBytesPerS).toBeCloseTo(0.9 * 2039e9, 0);
    expect(() => gpuRoofline(g, "fp8" as never)).toThrow(/^precision must be fp32, fp16 or bf16, got "fp8"$/);
  });
  it("a cluster preset is a fresh copy, valid, with the node's links", () => {
    const a = clusterPreset("64x-h100-80gb");
    a.nodes = 1;
    expect(clusterPreset("64x-h100-80gb").nodes).toBe(8);
    for (const p of CLUSTER_PRESETS) expect(checkCluster(clusterPreset(p.id))).toBeTruthy();
    expect(clusterPreset("8x-a100-80gb").intraNode.bandwidthBytesPerS).toBe(300e9);
    expect(clusterPreset("8x-b200-180gb").intraNode.bandwidthBytesPerS).toBe(900e9);
    expect(clusterPreset("8x-l40s-48gb").intraNode.bandwidthBytesPerS).toBe(clusterPreset("8x-l40s-48gb").pcie.bandwidthBytesPerS); // no NVLink
    expect(clusterOf("mi300x-192gb", 8, 2, "net-400g", 2 ** 41).interNode.bandwidthBytesPerS).toBe(50e9);
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
