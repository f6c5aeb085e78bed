import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseModelConfig } from "../memory/index.js";
import { loadPresetText } from "../memory/loadPresetText.js";
import { megatronIterationFlops, matmulParams, palmFlopsPerToken, transformerLayerTime, type LayerShape, type Roofline } from "./index.js";

const a100: Roofline = { peakFlops: 312e12, matmulEfficiency: 271.2 / 312, attentionEfficiency: 0.5, hbmBytesPerS: 2.039e12, numSMs: 108 };
const gpt = (h: number, a: number): LayerShape => ({ hiddenSize: h, numHeads: a, numKvHeads: a, headDim: h / a, intermediateSize: 4 * h, gated: false, rotary: false, dropout: true });

describe("transformerLayerTime", () => {
  it("counts Narayanan et al.'s FLOPs of a GPT layer: 24·b·s·h² + 4·b·s²·h forward, twice that backward (eager, t = 1)", () => {
    const [b, s, h] = [2, 2048, 4096];
    const r = transformerLayerTime(gpt(h, 32), { microBatch: b, seqLen: s, tensorParallel: 1, sequenceParallel: false, attention: "eager", bytesPerElement: 2 }, a100);
    expect(r.flops.forward).toBe(24 * b * s * h * h + 4 * b * s * s * h);
    expect(r.flops.backward).toBe(2 * r.flops.forward);
  });
  it("tensor parallelism divides the GEMM FLOPs by t, but not the replicated normalisations and residuals; sequence parallelism divides those too", () => {
    const w = { microBatch: 1, seqLen: 2048, sequenceParallel: false, attention: "flash" as const, bytesPerElement: 2 };
    const one = transformerLayerTime(gpt(8192, 64), { ...w, tensorParallel: 1 }, a100);
    const eight = transformerLayerTime(gpt(8192, 64), { ...w, tensorParallel: 8 }, a100);
    const sp = transformerLayerTime(gpt(8192, 64), { ...w, tensorParallel: 8, sequenceParallel: true }, a100);
    expect(eight.flops.forward * 8).toBe(one.flops.forward);
    expect(eight.forward.elementwiseS).toBeGreaterThan(one.forward.elementwiseS / 8);
    expect(sp.forward.elementwiseS).toBeLessThan(eight.forward.elementwiseS);
    // Smaller GEMMs fill the waves less: the GEMM time falls by less than 8×.
    expect(eight.forward.gemmS * 8).toBeGreaterThanOrEqual(one.forward.gemmS);
  });
  it("selective recomputation re-runs the eager attention core only; with FlashAttention it re-runs nothing", () => {
    const w = { microBatch: 1, seqLen: 4096, tensorParallel: 1, sequenceParallel: false, bytesPerElement: 2 };
    const eager = transformerLayerTime(gpt(4096, 32), { ...w, attention: "eager" }, a100);
    expect(eager.recompute.selectiveS).toBe(eager.forward.attentionS);
    expect(eager.recompute.fullS).toBe(eager.forward.totalS);
    expect(transformerLayerTime(gpt(4096, 32), { ...w, attention: "flash" }, a100).recompute.selectiveS).toBe(0);
  });
  it("property: every time is finite and > 0, and a larger micro-batch never takes less time per layer", () => {
    fc.assert(fc.property(fc.constantFrom(1, 2, 4), fc.constantFrom(512, 1024, 2048), fc.constantFrom(1, 2, 4, 8), fc.constantFrom("eager", "flash"), (b, s, t, att) => {
      const w = { microBatch: b, seqLen: s, tensorParallel: t, sequenceParallel: false, attention: att as "eager" | "flash", bytesPerElement: 2 };
      const r = transformerLayerTime(gpt(2048, 16), w, a100);
      for (const x of [r.forward.totalS, r.backward.totalS]) expect(Number.isFinite(x) && x > 0).toBe(true);
      expect(transformerLayerTime(gpt(2048, 16), { ...w, microBatch: 2 * b }, a100).forward.totalS).toBeGreaterThanOrEqual(r.forward.totalS);
    }), { numRuns: 60 });
  });
  it("names bad input", () => {
    const w = { microBatch: 1, seqLen: 128, tensorParallel: 3, sequenceParallel: false, attention: "flash" as const, bytesPerElement: 2 };
    expect(() => transformerLayerTime(gpt(4096, 32), w, a100)).toThrow(/^numHeads \(32\) must be divisible by tensorParallel \(3\)$/);
    expect(() => transformerLayerTime(gpt(4096, 32), { ...w, tensorParallel: 0 }, a100)).toThrow(/^tensorParallel must be an integer >= 1, got 0$/);
  });
});

describe("FLOP counts", () => {
  it("Narayanan et al.'s Eq. 3 for Table 1's 1.7B row", () => {
    expect(megatronIterationFlops({ batch: 512, seqLen: 2048, numLayers: 24, hiddenSize: 2304, vocabSize: 51200 }))
      .toBeCloseTo(96 * 512 * 2048 * 24 * 2304 ** 2 * (1 + 2048 / (6 * 2304) + 51200 / (16 * 24 * 2304)), -3);
    expect(() => megatronIterationFlops({ batch: 0, seqLen: 1, numLayers: 1, hiddenSize: 1, vocabSize: 1 })).toThrow(/^batch must be a finite number > 0, got 0$/);
  });
  it("PaLM's 6N + 12·L·H·Q·T as nanoGPT counts N: GPT-2 124M leaves out its position table only", () => {
    const gpt2 = parseModelConfig(loadPresetText("gpt2"));
    expect(matmulParams(gpt2)).toBe(124439808 - 1024 * 768);
    expect(palmFlopsPerToken(gpt2, 1024)).toBe(6 * (124439808 - 1024 * 768) + 12 * 12 * 12 * 64 * 1024);
  });
  it("6Ψ is below PaLM's count for GPT-2 (tied embedding) and Llama-2-7B, above it for Pythia-70M at s = 2048 (untied input table)", () => {
    const ratio = (m: string, s: number) => { const a = parseModelConfig(loadPresetText(m)); const N = matmulParams(a) + (a.tiedEmbeddings ? 0 : a.vocabSize * a.hiddenSize) + a.learnedPositions * a.hiddenSize; return (6 * N) / palmFlopsPerToken(a, s); };
    expect(ratio("gpt2", 1024)).toBeLessThan(1);
    expect(ratio("llama-2-7b", 4096)).toBeLessThan(1);
    expect(ratio("pythia-70m", 2048)).toBeCloseTo(1.23, 2);
  });
});
