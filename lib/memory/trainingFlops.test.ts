import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { A100_DENSE_FP16_FLOPS, achievedFlopsPerGpu, largestPlausibleParams, trainingFlopsPerToken } from "./trainingFlops.js";

const PSI_13B = 13_015_864_320; // Llama-2-13B's parameter count (Touvron et al. 2023, as model.num_parameters() prints)
// The notes' ZeRO-2 run prints train_samples_per_second = 31.297 (8 GPUs, sequences of 2048 tokens).
const zero2Run = { samplesPerSecond: 31.297, tokensPerSample: 2048, numGpus: 8 };

describe("trainingFlopsPerToken(params, recompute)", () => {
  it("is 6Ψ (Kaplan et al. 2020, §2.1), 8Ψ with full recomputation, 6Ψ with selective", () => {
    expect(trainingFlopsPerToken(1e9)).toBe(6e9);
    expect(trainingFlopsPerToken(1e9, "full")).toBe(8e9);
    expect(trainingFlopsPerToken(1e9, "selective")).toBe(6e9);
  });
  it("rejects a non-positive or non-finite count and an unknown mode", () => {
    expect(() => trainingFlopsPerToken(0)).toThrow(/params must be a finite number > 0, got 0/);
    expect(() => trainingFlopsPerToken(Infinity)).toThrow(RangeError);
    expect(() => trainingFlopsPerToken(1, "half" as "full")).toThrow(/recompute must be none, selective or full/);
  });
});

describe("achievedFlopsPerGpu(params, run)", () => {
  it("a 13B model at the notes' ZeRO-2 rate needs 626 TFLOP/s per GPU: twice an A100's 312 dense peak", () => {
    const f = achievedFlopsPerGpu(PSI_13B, zero2Run);
    // 6 · 13,015,864,320 · 31.297 · 2048 / 8, computed by hand: 625.70 TFLOP/s
    expect(f / 1e12).toBeCloseTo(625.70, 1);
    expect(f).toBeGreaterThan(2 * A100_DENSE_FP16_FLOPS);
    expect(achievedFlopsPerGpu(PSI_13B, { ...zero2Run, recompute: "full" }) / 1e12).toBeCloseTo(834.27, 1);
  });
  it("rejects bad runs by name", () => {
    expect(() => achievedFlopsPerGpu(PSI_13B, { ...zero2Run, samplesPerSecond: -1 })).toThrow(/samplesPerSecond must be a finite number > 0, got -1/);
    expect(() => achievedFlopsPerGpu(PSI_13B, { ...zero2Run, numGpus: 0 })).toThrow(/numGpus/);
    expect(() => achievedFlopsPerGpu(PSI_13B, { ...zero2Run, tokensPerSample: NaN })).toThrow(/tokensPerSample/);
  });
  it("property: linear in Ψ and in samples/s, inverse in GPUs", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e12 }), fc.double({ min: 0.1, max: 1e3, noNaN: true }), fc.integer({ min: 1, max: 1024 }), (p, r, n) => {
      const base = achievedFlopsPerGpu(p, { samplesPerSecond: r, tokensPerSample: 2048, numGpus: n });
      expect(achievedFlopsPerGpu(2 * p, { samplesPerSecond: r, tokensPerSample: 2048, numGpus: n })).toBeCloseTo(2 * base, 0);
      expect(achievedFlopsPerGpu(p, { samplesPerSecond: r, tokensPerSample: 2048, numGpus: 2 * n })).toBeCloseTo(base / 2, 0);
    }), { seed: 8, numRuns: 100 });
  });
});

describe("largestPlausibleParams(run, peak)", () => {
  it("at 100% of an A100's peak the ZeRO-2 run could have trained at most 6.5e9 parameters (4.9e9 with full recomputation)", () => {
    expect(largestPlausibleParams(zero2Run, A100_DENSE_FP16_FLOPS)).toBe(6_490_238_681);
    expect(largestPlausibleParams({ ...zero2Run, recompute: "full" }, A100_DENSE_FP16_FLOPS)).toBe(4_867_679_010);
    expect(largestPlausibleParams(zero2Run, A100_DENSE_FP16_FLOPS)).toBeLessThan(PSI_13B / 2);
  });
  it("is the inverse of achievedFlopsPerGpu: that many parameters run at (just under) the peak", () => {
    const p = largestPlausibleParams(zero2Run, A100_DENSE_FP16_FLOPS);
    expect(achievedFlopsPerGpu(p, zero2Run)).toBeLessThanOrEqual(A100_DENSE_FP16_FLOPS);
    expect(achievedFlopsPerGpu(p + 1, zero2Run)).toBeGreaterThan(A100_DENSE_FP16_FLOPS - 1e5);
    expect(() => largestPlausibleParams(zero2Run, 0)).toThrow(/peakFlopsPerGpu must be a finite number > 0, got 0/);
  });
});
