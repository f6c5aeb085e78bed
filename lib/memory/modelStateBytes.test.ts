import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { bytesPerParam, modelStateBytes, type ZeroStage } from "./modelStateBytes.js";

const GB = 1e9; // the ZeRO paper's GB
const mixed = (params: number, dataParallel: number, zeroStage: ZeroStage) =>
  modelStateBytes({ params, dataParallel, zeroStage, precision: "fp16", optimizer: "adamw" });
const total = (m: { parameters: number; gradients: number; optimizerStates: number }) => m.parameters + m.gradients + m.optimizerStates;

/** Equal to a printed figure within one unit of its last printed digit (the paper rounds and sometimes truncates). */
function matchesPrinted(value: number, printed: string): void {
  const decimals = printed.includes(".") ? printed.split(".")[1]!.length : 0;
  expect(Math.abs(value - Number(printed))).toBeLessThanOrEqual(10 ** -decimals);
}

describe("bytesPerParam(precision, optimizer)", () => {
  it("is 2 + 2 + 12 for mixed-precision AdamW (ZeRO §3.1, K = 12)", () => {
    expect(bytesPerParam("fp16", "adamw")).toEqual({ parameters: 2, gradients: 2, optimizerStates: 12 });
    expect(bytesPerParam("bf16", "adamw")).toEqual({ parameters: 2, gradients: 2, optimizerStates: 12 });
  });
  it("is 4 + 4 + 8 in fp32 (the notes' 4P + 4P + 8P): no master copy", () => {
    expect(bytesPerParam("fp32", "adamw")).toEqual({ parameters: 4, gradients: 4, optimizerStates: 8 });
  });
  it("counts one momentum buffer for SGD with momentum and none for plain SGD", () => {
    expect(bytesPerParam("fp32", "sgd-momentum").optimizerStates).toBe(4);
    expect(bytesPerParam("fp32", "sgd").optimizerStates).toBe(0);
    expect(bytesPerParam("bf16", "sgd-momentum").optimizerStates).toBe(8);
    expect(bytesPerParam("bf16", "sgd").optimizerStates).toBe(4);
  });
  it("rejects unknown names", () => {
    // @ts-expect-error a wrong precision on purpose
    expect(() => bytesPerParam("fp8", "adamw")).toThrow(/precision must be one of/);
    // @ts-expect-error a wrong optimizer on purpose
    expect(() => bytesPerParam("fp16", "lion")).toThrow(/optimizer must be one of/);
  });
});

describe("modelStateBytes(options)", () => {
  it("reproduces ZeRO Figure 1: Ψ = 7.5B, N_d = 64, K = 12 → 120, 31.4, 16.6, 1.9 GB", () => {
    const printed = ["120", "31.4", "16.6", "1.9"];
    ([0, 1, 2, 3] as const).forEach((stage, i) => matchesPrinted(total(mixed(7.5e9, 64, stage)) / GB, printed[i]!));
  });

  // ZeRO Table 1: per-device memory (GB) of model states for three model sizes, DP degree 1 … 1024; columns P_os, P_os+g, P_os+g+p.
  const table1: Record<number, [number, string[]][]> = {
    7.5e9: [[1, ["120", "120", "120"]], [4, ["52.5", "41.3", "30"]], [16, ["35.6", "21.6", "7.5"]], [64, ["31.4", "16.6", "1.88"]], [256, ["30.4", "15.4", "0.47"]], [1024, ["30.1", "15.1", "0.12"]]],
    128e9: [[1, ["2048", "2048", "2048"]], [4, ["896", "704", "512"]], [16, ["608", "368", "128"]], [64, ["536", "284", "32"]], [256, ["518", "263", "8"]], [1024, ["513", "257", "2"]]],
    1e12: [[1, ["16000", "16000", "16000"]], [4, ["7000", "5500", "4000"]], [16, ["4750", "2875", "1000"]], [64, ["4187", "2218", "250"]], [256, ["4046", "2054", "62.5"]], [1024, ["4011", "2013", "15.6"]]],
  };
  for (const [psi, rows] of Object.entries(table1)) {
    it(`reproduces ZeRO Table 1 for Ψ = ${Number(psi) / 1e9}B at every DP degree and stage`, () => {
      for (const [n, printed] of rows) {
        ([1, 2, 3] as const).forEach((stage, i) => matchesPrinted(total(mixed(Number(psi), n, stage)) / GB, printed[i]!));
      }
    });
  }

  it("worked example: Llama-2-13B, ZeRO-2 on 8 GPUs = 2Ψ + (2 + 12)Ψ/8", () => {
    const psi = 13_015_864_320;
    const m = mixed(psi, 8, 2);
    expect(m).toEqual({ parameters: 2 * psi, gradients: (2 * psi) / 8, optimizerStates: (12 * psi) / 8, cpuBytes: 0 });
  });

  it("offload moves the optimizer states (and the stage-2 gradient partition) to CPU; params only at stage 3", () => {
    const psi = 1_000_000;
    const o2 = modelStateBytes({ params: psi, dataParallel: 4, zeroStage: 2, precision: "bf16", optimizer: "adamw", offload: "optimizer" });
    expect(o2).toEqual({ parameters: 2 * psi, gradients: 0, optimizerStates: 0, cpuBytes: (14 * psi) / 4 });
    const o3 = modelStateBytes({ params: psi, dataParallel: 4, zeroStage: 3, precision: "bf16", optimizer: "adamw", offload: "optimizer+params" });
    expect(o3).toEqual({ parameters: 0, gradients: 0, optimizerStates: 0, cpuBytes: (16 * psi) / 4 });
    expect(() => modelStateBytes({ params: psi, dataParallel: 4, zeroStage: 0, precision: "bf16", optimizer: "adamw", offload: "optimizer" })).toThrow(/needs zeroStage >= 1/);
    expect(() => modelStateBytes({ params: psi, dataParallel: 4, zeroStage: 2, precision: "bf16", optimizer: "adamw", offload: "optimizer+params" })).toThrow(/needs zeroStage 3/);
  });

  it("pads a partition to whole elements, ⌈Ψ/N⌉ × bytes (DeepSpeed pads the flat buffer), and rejects bad counts", () => {
    expect(mixed(10, 3, 3).parameters).toBe(8); // ⌈10/3⌉ = 4 elements × 2 bytes, not ⌈20/3⌉ = 7 bytes
    expect(mixed(10, 3, 3).optimizerStates).toBe(48); // 4 elements × 12 bytes, not ⌈120/3⌉ = 40
    expect(mixed(10, 4, 2).gradients).toBe(6); // ⌈10/4⌉ = 3 elements × 2 bytes; the 16-bit weights stay whole: 20
    expect(mixed(10, 4, 2).parameters).toBe(20);
    expect(() => mixed(-1, 8, 1)).toThrow(/params must be an integer >= 0, got -1/);
    expect(() => mixed(100, 0, 1)).toThrow(/dataParallel must be an integer >= 1, got 0/);
    expect(() => mixed(100, 2.5, 1)).toThrow(/dataParallel/);
    expect(() => mixed(100, 2, 4 as ZeroStage)).toThrow(/zeroStage must be 0, 1, 2 or 3/);
  });

  it("ampDesign torch (PyTorch AMP): fp32 weights and .grad, Adam 8, no master copy; only without ZeRO", () => {
    const r = modelStateBytes({ params: 100, dataParallel: 8, zeroStage: 0, precision: "fp16", optimizer: "adamw", ampDesign: "torch" });
    expect(r).toEqual({ parameters: 400, gradients: 400, optimizerStates: 800, cpuBytes: 0 });
    expect(bytesPerParam("bf16", "sgd-momentum", "torch")).toEqual({ parameters: 4, gradients: 4, optimizerStates: 4 });
    expect(bytesPerParam("fp16", "adamw", "deepspeed")).toEqual({ parameters: 2, gradients: 2, optimizerStates: 12 });
    expect(() => modelStateBytes({ params: 100, dataParallel: 8, zeroStage: 2, precision: "fp16", optimizer: "adamw", ampDesign: "torch" }))
      .toThrow(/ampDesign "torch" \(PyTorch AMP\) has no ZeRO partitioning: use zeroStage 0, got 2/);
    expect(() => bytesPerParam("fp16", "adamw", "apex" as "torch")).toThrow(RangeError);
  });

  it("property: each stage needs no more memory than the one before, and all stages agree on one GPU", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e12 }), fc.integer({ min: 1, max: 4096 }), (psi, n) => {
      const t = ([0, 1, 2, 3] as const).map((s) => total(mixed(psi, n, s)));
      for (let i = 1; i < 4; i++) expect(t[i]).toBeLessThanOrEqual(t[i - 1]!);
      const one = ([0, 1, 2, 3] as const).map((s) => total(mixed(psi, 1, s)));
      expect(new Set(one).size).toBe(1);
      expect(one[0]).toBe(16 * psi);
    }), { seed: 4, numRuns: 200 });
  });
});
