import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { estimateMemory, fitsInMemory } from "./estimateMemory.js";
import { peakBytes, transientBytes } from "./peakMemory.js";
import { parseModelConfig } from "./parseModelConfig.js";
import { loadPresetText } from "./loadPresetText.js";
import { GiB } from "./units.js";

const llama13 = parseModelConfig(loadPresetText("llama-2-13b"));
const run = { arch: llama13, numGpus: 8, zeroStage: 2 as const, precision: "fp16" as const, optimizer: "adamw" as const, microBatch: 8, seqLen: 2048, recompute: "full" as const };
const sbh = 2048 * 8 * 5120;

describe("estimateMemory(setup).peak — the transient lines", () => {
  it("worked example (eager attention, full recomputation): rebuilt layer sbh(34 + 5as/h), fp32 softmax 4as²b, fp32 logits and gradient 8bsV", () => {
    const r = estimateMemory(run);
    const byName = Object.fromEntries(r.peak.lines.map((l) => [l.name, l.bytes]));
    expect(byName).toEqual({
      recomputedLayer: sbh * (34 + (5 * 40 * 2048) / 5120), // 5as/h = 80: 9,563,013,120 bytes, 8.91 GiB (the review's 8.9)
      attentionScoresFp32: 4 * 40 * 2048 * 2048 * 8,
      logitsFp32: 2 * 4 * 8 * 2048 * 32000,
    });
    // the rebuilt layer alone is larger than all 40 stored checkpoints together
    expect(byName.recomputedLayer).toBeGreaterThan(r.perGpu.activations);
    // output and layer phases do not overlap: the larger (layer) is added
    expect(r.peak.total).toBe(r.perGpu.total + byName.recomputedLayer! + byName.attentionScoresFp32!);
    expect(r.peak.total / GiB).toBeCloseTo(65.61, 2);
    for (const l of r.peak.lines) expect(l.source.length).toBeGreaterThan(10);
  });

  it("with FlashAttention the rebuilt layer is 34·sbh and there is no fp32 softmax; stored activations without recomputation lose the 5as/h term", () => {
    const r = estimateMemory({ ...run, attention: "flash" });
    expect(r.peak.lines.map((l) => [l.name, l.bytes])).toEqual([["recomputedLayer", 34 * sbh], ["logitsFp32", 2 * 4 * 8 * 2048 * 32000]]);
    expect(estimateMemory({ ...run, recompute: "none", attention: "flash" }).perGpu.activations).toBe(40 * 34 * sbh);
    expect(estimateMemory({ ...run, recompute: "none" }).perGpu.activations).toBe(40 * 114 * sbh);
  });

  it("a user's case: the steady state fits in 80 GiB but one layer's attention scores alone exceed the free memory, so it does NOT fit", () => {
    // Llama-2-13B, ZeRO-3 over 64 GPUs, one sequence of 32,768 tokens, full recomputation, eager attention
    const r = estimateMemory({ ...run, numGpus: 64, zeroStage: 3, seqLen: 32768, microBatch: 1 });
    const gpu = 80 * GiB;
    expect(r.perGpu.total).toBeLessThan(gpu); // what a steady-state estimate would call "fits"
    const oneScoreTensor = 2 * 40 * 32768 * 32768 * 1; // the 16-bit QKᵀ of one layer, bytes
    expect(oneScoreTensor).toBeGreaterThan(gpu - r.perGpu.total);
    expect(fitsInMemory(r, gpu)).toBe(false);
    expect(fitsInMemory(estimateMemory(run), gpu)).toBe(true);
    expect(() => fitsInMemory(r, 0)).toThrow(/gpuBytes must be a finite number > 0, got 0/);
  });

  it("full offload: the GPU still holds ZeRO-3's gathered layer (4 bytes × the largest layer), not 0", () => {
    const r = estimateMemory({ ...run, zeroStage: 3, offload: "optimizer+params" });
    expect(r.perGpu.parameters + r.perGpu.gradients + r.perGpu.optimizerStates).toBe(0);
    const gathered = r.peak.lines.find((l) => l.name === "gatheredLayer");
    expect(gathered?.bytes).toBe(4 * 32000 * 5120); // the embedding, DeepSpeed's 4 * largest_layer_params
    expect(gathered?.phase).toBe("always");
  });

  it("PyTorch AMP adds autocast's 16-bit weight copies (2Ψ) to the peak and DDP's bucket copy of the fp32 gradients to the steady state", () => {
    const r = estimateMemory({ ...run, zeroStage: 0, ampDesign: "torch" });
    const psi = r.params;
    expect(r.perGpu).toMatchObject({ parameters: 4 * psi, gradients: 4 * psi, optimizerStates: 8 * psi, gradientBuckets: 4 * psi });
    expect(r.peak.lines.find((l) => l.name === "autocastCasts")?.bytes).toBe(2 * psi);
    expect(estimateMemory({ ...run, zeroStage: 0, ampDesign: "torch", gradientAsBucketView: true }).perGpu.gradientBuckets).toBe(0);
    expect(estimateMemory({ ...run, numGpus: 1, zeroStage: 0, ampDesign: "torch" }).perGpu.gradientBuckets).toBe(0); // no DDP on one GPU
    expect(() => estimateMemory({ ...run, ampDesign: "torch" })).toThrow(/ampDesign "torch" \(PyTorch AMP\) has no ZeRO partitioning/);
    expect(() => estimateMemory({ ...run, attention: "sdpa" as "flash" })).toThrow(/attention must be eager or flash, got "sdpa"/);
  });

  it("the fp32 softmax line is for Llama-style eager attention only (GPT-2's eager softmax keeps the input dtype)", () => {
    const gpt2 = parseModelConfig(loadPresetText("gpt2"));
    const r = estimateMemory({ arch: gpt2, numGpus: 1, zeroStage: 0, precision: "bf16", optimizer: "adamw", microBatch: 8, seqLen: 1024 });
    expect(r.peak.lines.map((l) => l.name)).toEqual(["logitsFp32"]);
    expect(r.peak.lines[0]!.bytes).toBe(8 * 8 * 1024 * 50257);
  });

  it("Megatron-LM's cross-entropy: the 16-bit logits and one fp32 softmax that its backward overwrites with the gradient, (2 + 4)·b·s·V/t, not Hugging Face's 2 · 4·b·s·V", () => {
    const run = { arch: llama13, numGpus: 8, zeroStage: 1 as const, precision: "bf16" as const, optimizer: "adamw" as const, microBatch: 2, seqLen: 4096, tensorParallel: 2, attention: "flash" as const };
    const logits = (o: object) => estimateMemory({ ...run, ...o }).peak.lines.find((l) => l.name === "logitsFp32")!;
    // _VocabParallelCrossEntropy at d98e8a6: vocab_parallel_logits.float() (4 bytes) beside the bf16 output (2); the saved softmax becomes grad_input in place
    expect(logits({ loss: "megatron" }).bytes).toBe(((2 + 4) * 2 * 4096 * 32000) / 2);
    expect(logits({ loss: "megatron" }).source).toMatch(/Megatron-LM .*cross_entropy\.py/);
    expect(logits({ loss: "megatron", precision: "fp32" }).bytes).toBe((4 * 2 * 4096 * 32000) / 2); // .float() of fp32 logits is the same tensor
    expect(logits({}).bytes).toBe((2 * 4 * 2 * 4096 * 32000) / 2); // the default stays Hugging Face's
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8192 }), (b, s) =>
      logits({ loss: "megatron", microBatch: b, seqLen: s }).bytes * 4 === logits({ microBatch: b, seqLen: s }).bytes * 3), { numRuns: 30 });
  });

  it("peakBytes adds the always lines and the larger phase only", () => {
    const L = (bytes: number, phase: "always" | "output" | "layer") => ({ name: "x", bytes, phase, what: "", source: "" });
    expect(peakBytes(100, [L(5, "always"), L(30, "output"), L(10, "layer"), L(15, "layer")])).toBe(135);
    expect(peakBytes(100, [])).toBe(100);
  });

  it("property: peak >= steady, integers, and the rebuilt layer grows with s²·a only under eager attention", () => {
    fc.assert(fc.property(fc.constantFrom("none", "selective", "full"), fc.constantFrom("eager", "flash"), fc.constantFrom(0, 1, 2, 3),
      fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: 8192 }), (recompute, attention, zeroStage, microBatch, seqLen) => {
        const r = estimateMemory({ ...run, recompute, attention, zeroStage, microBatch, seqLen });
        expect(Number.isSafeInteger(r.peak.total)).toBe(true);
        expect(r.peak.total).toBeGreaterThanOrEqual(r.perGpu.total);
        for (const l of r.peak.lines) expect(Number.isSafeInteger(l.bytes) && l.bytes > 0).toBe(true);
      }), { seed: 9, numRuns: 200 });
    expect(transientBytes({ paramsPerShard: 10, seqLen: 1, microBatch: 1, tensorParallel: 1, sequenceParallel: false, recompute: "none", attention: "eager",
      bytesPerElement: 2, zeroStage: 0, gatheredBytesPerParam: 4, largestLayerParams: 0, autocastCasts: false })).toEqual([]);
  });
});
