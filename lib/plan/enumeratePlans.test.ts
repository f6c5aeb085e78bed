import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clusterPreset, enumeratePlans, gptArch, type Cluster, type Workload } from "./index.js";

const small = gptArch({ hiddenSize: 256, numLayers: 4, numHeads: 4, vocabSize: 1000, seqLen: 128 });
const w: Workload = { globalBatch: 16, seqLen: 128, precision: "bf16", optimizer: "adamw" };

describe("enumeratePlans", () => {
  it("worked example: 8 GPUs in one node, 4 heads, 4 layers, batch 16, one choice of everything but the layout", () => {
    const plans = enumeratePlans(small, clusterPreset("8x-a100-80gb"), w, {
      zeroStages: [1], offloads: ["none"], recomputes: ["none"], attentions: ["flash"], sequenceParallel: [false], microBatches: [1, 2],
    });
    // t ∈ {1, 2, 4} (divides 8 and the 4 heads), p ∈ {1, 2, 4} (divides 4 layers), t·p | 8 → (1,1) (1,2) (1,4) (2,1) (2,2) (2,4) (4,1) (4,2);
    // d = 8/(t·p) = 8 4 2 4 2 1 2 1; b ∈ {1, 2} with b·d | 16: every pair → 16 plans.
    expect(plans.length).toBe(16);
    expect(plans.map((p) => `${p.tensorParallel}${p.pipelineParallel}${p.microBatch}:${p.gradAccum}`).slice(0, 4)).toEqual(["111:2", "112:1", "121:4", "122:2"]);
  });
  it("tensor-parallel sizes follow chapter 6's rule (Megatron since f7dfb99): 2 KV heads allow t = 4 and 8, which the older rule (t divides the KV heads) refused", () => {
    const gqa = { ...gptArch({ hiddenSize: 1024, numLayers: 4, numHeads: 8, vocabSize: 1000, seqLen: 128 }), numKvHeads: 2 };
    const only = { zeroStages: [1], offloads: ["none"], recomputes: ["none"], attentions: ["flash"], sequenceParallel: [false], microBatches: [1], pipelineParallel: [1] } as const;
    const ts = (arch: typeof gqa) => [...new Set(enumeratePlans(arch, clusterPreset("8x-a100-80gb"), w, only).map((p) => p.tensorParallel))];
    expect(ts(gqa)).toEqual([1, 2, 4, 8]);
    expect(ts({ ...gqa, numHeads: 12, hiddenSize: 1536, numKvHeads: 3 })).toEqual([1]); // 3 KV heads: t = 2, 4, 8 are neither divisors nor multiples of 3
  });
  it("offload follows DeepSpeed's rules and sequence parallelism needs t > 1", () => {
    const plans = enumeratePlans(small, clusterPreset("8x-a100-80gb"), w, { microBatches: [2] });
    expect(plans.some((p) => p.offload === "optimizer" && p.zeroStage === 0)).toBe(false);
    expect(plans.some((p) => p.offload === "optimizer+params" && p.zeroStage !== 3)).toBe(false);
    expect(plans.some((p) => p.sequenceParallel && p.tensorParallel === 1)).toBe(false);
    expect(plans.some((p) => p.offload === "optimizer+params")).toBe(true);
  });
  it("property: every plan uses all GPUs, keeps the global batch, and has sizes that divide what they split", () => {
    fc.assert(fc.property(
      fc.record({ heads: fc.constantFrom(1, 2, 3, 4, 6, 8, 12), layers: fc.integer({ min: 1, max: 12 }), perNode: fc.constantFrom(1, 2, 4, 8), nodes: fc.integer({ min: 1, max: 4 }), batch: fc.integer({ min: 1, max: 64 }) }),
      ({ heads, layers, perNode, nodes, batch }) => {
        const arch = gptArch({ hiddenSize: 64 * heads, numLayers: layers, numHeads: heads, vocabSize: 500, seqLen: 64 });
        const cluster: Cluster = { ...clusterPreset("8x-a100-80gb"), gpusPerNode: perNode, nodes };
        for (const p of enumeratePlans(arch, cluster, { ...w, globalBatch: batch, seqLen: 64 }, { recomputes: ["full"], attentions: ["flash"], zeroStages: [0, 3] })) {
          expect(p.dataParallel * p.tensorParallel * p.pipelineParallel).toBe(perNode * nodes);
          expect(p.microBatch * p.gradAccum * p.dataParallel).toBe(batch);
          expect(heads % p.tensorParallel).toBe(0);
          expect(p.tensorParallel).toBeLessThanOrEqual(perNode);
          expect(layers % p.pipelineParallel).toBe(0);
        }
      }), { numRuns: 60 });
  });
  it("bad input names the field", () => {
    expect(() => enumeratePlans(small, clusterPreset("8x-a100-80gb"), { ...w, globalBatch: 0 })).toThrow(/workload.globalBatch must be an integer >= 1, got 0/);
    expect(() => enumeratePlans(small, clusterPreset("8x-a100-80gb"), { ...w, precision: "fp8" as never })).toThrow(/workload.precision must be fp32, fp16 or bf16, got "fp8"/);
    expect(() => enumeratePlans(small, clusterPreset("8x-a100-80gb"), w, { microBatches: [0] })).toThrow(/space.microBatches must hold integers >= 1, got 0/);
  });
});
