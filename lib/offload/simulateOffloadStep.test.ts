import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { simulateOffloadStep, LANES } from "./simulateOffloadStep.js";
import { resolveOffloadConfig } from "./resolveOffloadConfig.js";
import { offloadMemory } from "./offloadMemory.js";

describe("simulateOffloadStep(config)", () => {
  it("worked example: ZeRO-Offload moves 2Ψ bytes each way per step (Ren et al. 2021, §4.1)", () => {
    const r = simulateOffloadStep({ numLayers: 4, hiddenSize: 1024 });
    const psi = 12 * 1024 ** 2;
    expect(r.bytesPerStep).toEqual({ h2d: 4 * 2 * psi, d2h: 4 * 2 * psi, nvmeRead: 0, nvmeWrite: 0 });
  });

  it("bytes per step follow the closed forms for every placement, for L and h that divide nothing", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 13 }), fc.integer({ min: 1, max: 999 }), (L, h) => {
      const P = L * 12 * h * h;
      const opt = simulateOffloadStep({ numLayers: L, hiddenSize: h, numSteps: 1 }).bytesPerStep;
      expect(opt).toEqual({ h2d: 2 * P, d2h: 2 * P, nvmeRead: 0, nvmeWrite: 0 });
      const par = simulateOffloadStep({ numLayers: L, hiddenSize: h, stage: 3, offloadParam: "cpu", numSteps: 1 }).bytesPerStep;
      expect(par).toEqual({ h2d: 4 * P, d2h: 2 * P, nvmeRead: 0, nvmeWrite: 0 });
      const inf = simulateOffloadStep({ numLayers: L, hiddenSize: h, stage: 3, offloadOptimizer: "nvme", offloadParam: "nvme", numSteps: 1 }).bytesPerStep;
      expect(inf).toEqual({ h2d: 4 * P, d2h: 2 * P, nvmeRead: 12 * P + 4 * P, nvmeWrite: 12 * P + 2 * P });
      const none = simulateOffloadStep({ numLayers: L, hiddenSize: h, offloadOptimizer: "none", numSteps: 1 }).bytesPerStep;
      expect(none).toEqual({ h2d: 0, d2h: 0, nvmeRead: 0, nvmeWrite: 0 });
    }), { numRuns: 40 });
  });

  it("no lane runs two tasks at once, and no task ends before it starts", () => {
    for (const cfg of [{}, { dpu: true }, { stage: 3 as const, offloadParam: "nvme" as const, offloadOptimizer: "nvme" as const }]) {
      const r = simulateOffloadStep({ numLayers: 7, hiddenSize: 777, ...cfg });
      for (const lane of LANES) {
        const ev = r.events.filter((e) => e.lane === lane);
        for (let i = 0; i < ev.length; i++) {
          expect(ev[i].end).toBeGreaterThanOrEqual(ev[i].t);
          if (i > 0) expect(ev[i].t).toBeGreaterThanOrEqual(ev[i - 1].end - 1e-12);
        }
      }
    }
  });

  it("without DPU a step lasts at least compute + CPU Adam + one parameter copy; with DPU the GPU never waits when the CPU keeps up", () => {
    const base = { numLayers: 12, hiddenSize: 2048 };
    const c = resolveOffloadConfig(base);
    const r = simulateOffloadStep(base);
    const adam = (c.numLayers * c.paramsPerLayer) / c.hardware.cpuAdamElementsPerS;
    expect(r.stepTimeS).toBeGreaterThanOrEqual(r.gpuComputeS + adam);
    const d = simulateOffloadStep({ ...base, dpu: true });
    expect(d.stepTimeS).toBeCloseTo(d.gpuComputeS, 9);
    expect(d.gpuUtilization).toBeCloseTo(1, 9);
  });

  it("with DPU and a slow CPU, the CPU sets the pace: step time = Ψ / CPU Adam rate", () => {
    const cfg = { numLayers: 10, hiddenSize: 1000, dpu: true, numSteps: 12, hardware: { cpuAdamElementsPerS: 1e8 } };
    const r = simulateOffloadStep(cfg);
    expect(r.stepTimeS).toBeCloseTo((10 * 12e6) / 1e8, 3);
  });

  it("DPU is never slower than the synchronous update", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 64, max: 3000 }), fc.double({ min: 1e8, max: 1e10, noNaN: true }), (L, h, rate) => {
      const hw = { cpuAdamElementsPerS: rate };
      const a = simulateOffloadStep({ numLayers: L, hiddenSize: h, hardware: hw, numSteps: 4 });
      const b = simulateOffloadStep({ numLayers: L, hiddenSize: h, hardware: hw, numSteps: 4, dpu: true });
      expect(b.stepTimeS).toBeLessThanOrEqual(a.stepTimeS * (1 + 1e-12));
    }), { numRuns: 30 });
  });

  it("a slower PCIe link never makes a step faster", () => {
    const fast = simulateOffloadStep({ numLayers: 8, hiddenSize: 1536, stage: 3, offloadParam: "cpu" });
    const slow = simulateOffloadStep({ numLayers: 8, hiddenSize: 1536, stage: 3, offloadParam: "cpu", hardware: { h2d: { bandwidthBytesPerS: 2e9 }, d2h: { bandwidthBytesPerS: 2e9 } } });
    expect(slow.stepTimeS).toBeGreaterThan(fast.stepTimeS);
  });

  it("bad input names the field", () => {
    expect(() => simulateOffloadStep({ numLayers: 2, hiddenSize: 64, offloadParam: "cpu" })).toThrow(/^offloadParam "cpu" needs stage 3 \(zero_optimization.stage\), got stage 2$/);
    expect(() => simulateOffloadStep({ numLayers: 2, hiddenSize: 64, hardware: { h2d: { bandwidthBytesPerS: 0 } } })).toThrow(/^h2d.bandwidthBytesPerS must be a finite number > 0, got 0$/);
    expect(() => simulateOffloadStep({ numLayers: 2, hiddenSize: 64, hardware: { nvmeReadBytesPerS: -1 } })).toThrow(/^nvmeReadBytesPerS must be a finite number > 0, got -1$/);
    expect(() => simulateOffloadStep({ numLayers: 0, hiddenSize: 64 })).toThrow(/^numLayers must be an integer >= 1, got 0$/);
    expect(() => simulateOffloadStep({ numLayers: 2, hiddenSize: 64, dpu: true, offloadOptimizer: "none" })).toThrow(/^dpu needs/);
    expect(() => simulateOffloadStep({ numLayers: 2, hiddenSize: 64, stage: 3, offloadParam: "cpu", offloadOptimizer: "none" })).toThrow(/needs offloadOptimizer/);
  });
});

describe("offloadMemory(config)", () => {
  it("moves 12Ψ of optimizer states and 4Ψ of fp32 gradients to the CPU, leaving 2Ψ + 2ψ on the GPU", () => {
    const m = offloadMemory({ numLayers: 3, hiddenSize: 100 });
    const psi = 12e4, P = 3 * psi;
    expect(m.cpu.optimizerStates).toBe(12 * P);
    expect(m.cpu.grads).toBe(4 * P);
    expect(m.gpu.params16 + m.gpu.grads).toBe(2 * P + 2 * psi);
    expect(m.gpu.optimizerStates).toBe(0);
  });

  it("DeepSpeed's ZeRO-2 offload estimate is the plain 16Ψ times its buffer factor 1.5 on one GPU", () => {
    const m = offloadMemory({ numLayers: 5, hiddenSize: 321 });
    expect(m.deepspeed.cpuBytes).toBe(Math.trunc(m.totalParams * 16 * 1.5));
    expect(m.deepspeed.cpuBytes).toBeCloseTo(1.5 * (m.cpu.optimizerStates + m.cpu.grads), 0);
  });

  it("the total is the sum of the parts, in every memory, for every placement", () => {
    for (const cfg of [{}, { offloadOptimizer: "none" as const }, { stage: 3 as const, offloadParam: "cpu" as const }, { stage: 3 as const, offloadParam: "nvme" as const, offloadOptimizer: "nvme" as const }]) {
      const m = offloadMemory({ numLayers: 3, hiddenSize: 257, ...cfg });
      for (const p of [m.gpu, m.cpu, m.nvme]) expect(p.total).toBe(p.params16 + p.grads + p.optimizerStates + p.activations);
      expect(m.gpu.total + m.cpu.total + m.nvme.total).toBeGreaterThanOrEqual(m.totalParams * 2);
    }
  });

  it("ZeRO-Infinity's NVMe tier takes the optimizer states and parameters off the CPU", () => {
    const m = offloadMemory({ numLayers: 4, hiddenSize: 512, stage: 3, offloadOptimizer: "nvme", offloadParam: "nvme" });
    expect(m.nvme.optimizerStates).toBe(12 * m.totalParams);
    expect(m.nvme.params16).toBe(2 * m.totalParams);
    expect(m.cpu.optimizerStates + m.cpu.params16).toBe(0);
  });
});
