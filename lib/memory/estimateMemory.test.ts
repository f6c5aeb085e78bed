import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { estimateMemory } from "./estimateMemory.js";
import { parseModelConfig } from "./parseModelConfig.js";
import { loadPresetText } from "./loadPresetText.js";

const llama13 = parseModelConfig(loadPresetText("llama-2-13b"));
const PSI_13B = 13_015_864_320; // Llama 2 13B, published count
const notesRun = { arch: llama13, numGpus: 8, zeroStage: 2 as const, precision: "fp16" as const, optimizer: "adamw" as const, microBatch: 8, seqLen: 2048, recompute: "full" as const };

describe("estimateMemory(setup)", () => {
  it("worked example: Llama-2-13B (an illustration) on the notes' set-up (8 GPUs, ZeRO-2, fp16, micro-batch 8, seq 2048, checkpointing)", () => {
    const r = estimateMemory(notesRun);
    expect(r.params).toBe(PSI_13B);
    expect(r.perGpu).toEqual({
      parameters: 2 * PSI_13B,
      gradients: (2 * PSI_13B) / 8,
      optimizerStates: (12 * PSI_13B) / 8, gradientBuckets: 0,
      activations: 40 * 2 * 2048 * 8 * 5120,
      total: 2 * PSI_13B + (14 * PSI_13B) / 8 + 40 * 2 * 2048 * 8 * 5120,
    });
    expect(r.dataParallel).toBe(8);
  });

  it("with --params only, estimates model states and reports activations 0 with a note (ZeRO Figure 1, stage 3)", () => {
    const r = estimateMemory({ params: 7.5e9, numGpus: 64, zeroStage: 3, precision: "fp16", optimizer: "adamw", microBatch: 1, seqLen: 2048 });
    expect(r.perGpu.total).toBe(1.875e9);
    expect(r.perGpu.activations).toBe(0);
    expect(r.notes.join(" ")).toMatch(/activations: 0/);
  });

  it("tensor and pipeline parallelism divide the parameters; ZeRO partitions over the rest", () => {
    const r = estimateMemory({ ...notesRun, numGpus: 16, tensorParallel: 2, pipelineParallel: 2 });
    expect(r.dataParallel).toBe(4);
    expect(r.paramsPerShard).toBe(PSI_13B / 4);
    expect(r.perGpu.parameters).toBe(2 * (PSI_13B / 4));
    expect(r.perGpu.optimizerStates).toBe((12 * (PSI_13B / 4)) / 4);
  });

  it("rejects layouts that do not fit, naming the field", () => {
    expect(() => estimateMemory({ ...notesRun, tensorParallel: 3, numGpus: 9 })).toThrow(/tensorParallel \(3\) cannot split this model \(Megatron-LM's rule\): numHeads \(40\) must be divisible by T \(3\); valid T for this config: 1, 2, 4, 8/);
    expect(() => estimateMemory({ ...notesRun, pipelineParallel: 3, numGpus: 9 })).toThrow(/pipelineParallel \(3\) must divide num_hidden_layers \(40\)/);
    expect(() => estimateMemory({ ...notesRun, numGpus: 6, tensorParallel: 4 })).toThrow(/numGpus \(6\) must be a multiple/);
    expect(() => estimateMemory({ ...notesRun, microBatch: -1 })).toThrow(/microBatch must be an integer >= 1, got -1/);
    expect(() => estimateMemory({ ...notesRun, arch: undefined })).toThrow(/give arch or params/);
  });

  it("property: every byte count is a finite integer and total is the sum, for any valid setup", () => {
    fc.assert(fc.property(
      fc.constantFrom(0, 1, 2, 3), fc.constantFrom("fp32", "fp16", "bf16"), fc.constantFrom("adamw", "sgd-momentum", "sgd"),
      fc.constantFrom("none", "selective", "full"), fc.constantFrom(1, 2, 4, 8), fc.constantFrom(1, 2, 4), fc.integer({ min: 1, max: 16 }),
      fc.integer({ min: 1, max: 32 }), fc.integer({ min: 1, max: 32768 }), fc.boolean(),
      (zeroStage, precision, optimizer, recompute, tp, pp, dp, microBatch, seqLen, sp) => {
        const r = estimateMemory({ arch: llama13, numGpus: dp * tp * pp, zeroStage, precision, optimizer, recompute, tensorParallel: tp, pipelineParallel: pp, microBatch, seqLen, sequenceParallel: sp });
        const p = r.perGpu;
        for (const v of Object.values(p)) expect(Number.isSafeInteger(v) && v >= 0).toBe(true);
        expect(p.total).toBe(p.parameters + p.gradients + p.optimizerStates + p.activations);
      }), { seed: 6, numRuns: 300 });
  });
});
