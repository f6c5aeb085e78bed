import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gpuFp8Roofline, gpuPreset, gpuRoofline } from "./gpuPresets.js";
import { moeBlockTime } from "./moeBlockTime.js";

const h100 = gpuRoofline(gpuPreset("h100-80gb"), "bf16");
const mixtral = { numExperts: 8, topK: 2, expertIntermediateSize: 14336, sharedIntermediateSize: 0 };
const o = { hiddenSize: 4096, gated: true, moe: mixtral, tokens: 4096, rows: 4096, tensorParallel: 1, expertParallel: 8, bytesPerElement: 2 };

describe("moeBlockTime", () => {
  it("worked example: Mixtral's block on 8 ranks: each GPU's one expert sees 8,192 token copies; FLOPs are the router's and a dense MLP's of width k·I_e", () => {
    const r = moeBlockTime(o, h100);
    expect(r.tokensPerExpert).toBe(8192); // 4096 tokens × 2 copies × 8 ranks / 8 experts
    const n = 4096, h = 4096, E = 8, k = 2, Ie = 14336;
    expect(r.forwardFlops).toBe(2 * n * h * E + 2 * n * k * h * 2 * Ie + 2 * n * k * Ie * h); // router, gate+up, down
  });
  it("edge cases: ep must divide the experts, topK must be from 1 to E, tokens ≥ 1", () => {
    expect(() => moeBlockTime({ ...o, expertParallel: 3 }, h100)).toThrow("expertParallel (3) must divide numExperts (8)");
    expect(() => moeBlockTime({ ...o, moe: { ...mixtral, topK: 9 } }, h100)).toThrow("topK must be an integer from 1 to numExperts (8), got 9");
    expect(() => moeBlockTime({ ...o, tokens: 0 }, h100)).toThrow("tokens must be an integer >= 1, got 0");
  });
  it("property: a GPU's expert FLOPs do not depend on ep (balanced routing); the GEMM time never grows with ep (fewer, larger products)", () => {
    fc.assert(fc.property(fc.constantFrom(1, 2, 4, 8), fc.constantFrom(1, 2, 4, 8), fc.constantFrom(1, 2, 4), (a, b, t) => {
      const x = moeBlockTime({ ...o, expertParallel: a, tensorParallel: t }, h100), y = moeBlockTime({ ...o, expertParallel: b, tensorParallel: t }, h100);
      expect(x.forwardFlops).toBeCloseTo(y.forwardFlops, -3);
      const s = (z: typeof x) => z.fc1.forwardS + z.fc2.forwardS;
      if (a <= b) expect(s(y)).toBeLessThanOrEqual(s(x) * (1 + 1e-9));
    }));
  });
  it("published figure: on the FP8 roofline (H100 MAMF 1,402.6 of 1,979 TFLOP/s, 80.3 % of 989 in bf16) the large expert GEMMs run about 1.77× faster", () => {
    const fp8 = gpuFp8Roofline(gpuPreset("h100-80gb"));
    expect(fp8.peakFlops * fp8.matmulEfficiency).toBeCloseTo(1402.6e12, -9);
    const b16 = moeBlockTime(o, h100), f8 = moeBlockTime({ ...o, bytesPerElement: 1 }, fp8);
    const ratio = b16.fc2.forwardS / f8.fc2.forwardS;
    expect(ratio).toBeGreaterThan(1.6);
    expect(ratio).toBeLessThan(1402.6 / 794.5 + 0.01);
    expect(() => gpuFp8Roofline(gpuPreset("a100-80gb"))).toThrow("has no FP8 tensor cores");
  });
});
