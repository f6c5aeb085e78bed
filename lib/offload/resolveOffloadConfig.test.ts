import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { resolveOffloadConfig } from "./resolveOffloadConfig.js";
import { DEFAULT_OFFLOAD_HARDWARE, validateHardware, ADAM_BYTES_PER_ELEMENT, CPU_ADAM_BYTES_PER_ELEMENT } from "./offloadHardware.js";

describe("resolveOffloadConfig(config)", () => {
  it("published figure: GPT-3's 96 layers of h = 12288 hold 12·96·h² ≈ 174e9 of its 175B parameters (Brown et al. 2020, Table 2.1)", () => {
    const c = resolveOffloadConfig({ numLayers: 96, hiddenSize: 12288 });
    expect(c.paramsPerLayer * c.numLayers / 175e9).toBeGreaterThan(0.99);
    expect(c.paramsPerLayer * c.numLayers / 175e9).toBeLessThan(1);
  });

  it("forward FLOPs per layer are 24bsh² + 4bs²h (Narayanan et al. 2021, §5.1), and 2·ψ·tokens when s ≪ h", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 4096 }), fc.integer({ min: 1, max: 8192 }), (b, s, h) => {
      const c = resolveOffloadConfig({ numLayers: 1, hiddenSize: h, seqLen: s, microBatch: b });
      expect(c.forwardFlopsPerLayer).toBe(24 * b * s * h * h + 4 * b * s * s * h);
      expect(c.forwardFlopsPerLayer).toBeGreaterThanOrEqual(2 * c.paramsPerLayer * b * s);
    }));
  });

  it("fills DeepSpeed-like defaults: stage 2, optimizer on the CPU, parameters on the GPU, no DPU", () => {
    expect(resolveOffloadConfig({ numLayers: 1, hiddenSize: 8 })).toMatchObject({ stage: 2, offloadOptimizer: "cpu", offloadParam: "none", dpu: false, seqLen: 1024, microBatch: 8, numSteps: 4 });
  });

  it("bad input names the field", () => {
    expect(() => resolveOffloadConfig({ numLayers: 1, hiddenSize: 8, stage: 1, offloadParam: "nvme" })).toThrow(/^offloadParam "nvme" needs stage 3 \(zero_optimization.stage\), got stage 1$/);
    expect(() => resolveOffloadConfig({ numLayers: 1, hiddenSize: 8, stage: 0 })).toThrow(/^offloadOptimizer "cpu" needs stage 1, 2 or 3/);
    expect(() => resolveOffloadConfig({ numLayers: 1, hiddenSize: 8, offloadOptimizer: "gpu" as never })).toThrow(/^offloadOptimizer must be "none", "cpu" or "nvme", got "gpu"$/);
    expect(() => resolveOffloadConfig({ numLayers: 1, hiddenSize: 8, seqLen: 0 })).toThrow(/^seqLen must be an integer >= 1, got 0$/);
    expect(() => resolveOffloadConfig(null as never)).toThrow(TypeError);
  });
});

describe("DEFAULT_OFFLOAD_HARDWARE and validateHardware(h)", () => {
  it("derives its figures from the published ones: PCIe 4.0 ×16, DDR4-3200 × 8 channels ÷ 34 bytes, A100 at half its fp16 peak", () => {
    expect(DEFAULT_OFFLOAD_HARDWARE.h2d.bandwidthBytesPerS / 1e9).toBeCloseTo(31.5, 1);
    // DDR4-3200 × 8 channels = 204.8 GB/s, over DeepSpeed's host bytes per element: 4 + 4 (fp32 gradient copied in, read) + 12 + 12 (master, m, v) + 2 (16-bit copy)
    expect(CPU_ADAM_BYTES_PER_ELEMENT).toBe(4 + 4 + 12 + 12 + 2);
    expect(DEFAULT_OFFLOAD_HARDWARE.cpuAdamElementsPerS * CPU_ADAM_BYTES_PER_ELEMENT).toBeCloseTo(204.8e9, -3);
    expect(ADAM_BYTES_PER_ELEMENT).toBe(2 + 12 + 12 + 2);
    expect(DEFAULT_OFFLOAD_HARDWARE.gpuFlopsPerS).toBe(156e12);
    expect(DEFAULT_OFFLOAD_HARDWARE.nvmeReadBytesPerS / 1e9).toBeCloseTo(7.88, 2);
  });
  it("overrides one field of a link and keeps the other; rejects non-positive bandwidths by name", () => {
    const h = validateHardware({ d2h: { bandwidthBytesPerS: 1e9 } });
    expect(h.d2h).toEqual({ alphaS: DEFAULT_OFFLOAD_HARDWARE.d2h.alphaS, bandwidthBytesPerS: 1e9 });
    expect(h.h2d).toEqual(DEFAULT_OFFLOAD_HARDWARE.h2d);
    expect(() => validateHardware({ d2h: { bandwidthBytesPerS: -2 } })).toThrow(/^d2h.bandwidthBytesPerS must be a finite number > 0, got -2$/);
    expect(() => validateHardware({ gpuFlopsPerS: Infinity })).toThrow(/^gpuFlopsPerS must be a finite number > 0, got Infinity$/);
    expect(() => validateHardware({ h2d: { alphaS: -1 } })).toThrow(/^h2d.alphaS must be a finite number >= 0, got -1$/);
  });
});
