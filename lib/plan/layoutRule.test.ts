import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseModelConfig } from "../memory/index.js";
import { loadPresetText } from "../memory/loadPresetText.js";
import { clusterPreset, enumeratePlans, evaluatePlan, gptArch, judgePlans, layoutRule, searchPlans, THREE_D_SPACE, type Plan, type Workload } from "./index.js";

const llama = gptArch({ hiddenSize: 1024, numLayers: 8, numHeads: 8, vocabSize: 1000, seqLen: 8192 });
const mixtral = parseModelConfig(loadPresetText("mixtral-8x7b"));
const h100 = clusterPreset("64x-h100-80gb"), a100 = clusterPreset("8x-a100-80gb");
const w: Workload = { globalBatch: 64, seqLen: 8192, precision: "bf16", optimizer: "adamw" };
const plan: Plan = { dataParallel: 4, tensorParallel: 8, pipelineParallel: 1, contextParallel: 2, zeroStage: 1, offload: "none", recompute: "none", sequenceParallel: true, attention: "flash", microBatch: 1, gradAccum: 16 };

describe("layoutRule (Megatron-LM d98e8a6's rules beyond three dimensions)", () => {
  it("worked example: TP 8 × CP 2 × DP 4 on 64 H100 keeps every rule; each broken rule is named", () => {
    expect(layoutRule(plan, llama, h100, w)).toBeUndefined();
    expect(layoutRule({ ...plan, dataParallel: 2 }, llama, h100, w)).toBe("the layout uses 32 GPUs (d·t·p·C = 2·8·1·2), the cluster has 64 (Megatron-LM: world = TP·PP·CP·DP)");
    expect(layoutRule(plan, llama, h100, { ...w, seqLen: 8190 })).toBe("seqLen (8190) must be a multiple of 2·C = 4 for context parallelism (Megatron-LM's load-balanced split)");
    expect(layoutRule({ ...plan, attention: "eager" }, llama, h100, w)).toBe("context parallelism needs fused attention (flash), not eager");
    expect(layoutRule({ ...plan, zeroStage: 2 }, llama, h100, w)).toBe("context and expert parallelism run on Megatron-LM: ZeRO stage 0 or 1 (its distributed optimizer), no offload");
    expect(layoutRule({ ...plan, fp8: true }, llama, { ...a100, nodes: 8 }, w)).toBe("FP8 needs FP8 tensor cores: the NVIDIA A100 80GB (SXM) has none");
  });
  it("expert parallelism: a mixture of experts, ep dividing the experts and d·C, sequence parallelism with t > 1", () => {
    const moe: Plan = { ...plan, contextParallel: undefined, dataParallel: 8, expertParallel: 8, sequenceParallel: true };
    expect(layoutRule(moe, mixtral, h100, w)).toBeUndefined();
    expect(layoutRule(moe, llama, h100, w)).toBe('expert parallelism needs a mixture of experts (model_type "gpt2" has none)');
    expect(layoutRule({ ...moe, expertParallel: 3 }, mixtral, h100, w)).toBe("--expert-model-parallel-size (3) must divide the experts (8)");
    expect(layoutRule({ ...moe, dataParallel: 2, pipelineParallel: 4 }, mixtral, h100, w)).toBe("world_size (64) is not divisible by expert_tensor_model_pipeline_parallel size (ETP·EP·PP = 256)");
    expect(layoutRule({ ...moe, sequenceParallel: false }, mixtral, h100, w)).toBe("Megatron-LM refuses an MoE layer with tensor parallelism but no sequence parallelism");
  });
  it("edge case: a 3D plan on the cluster's GPUs keeps every rule", () => {
    expect(layoutRule({ ...plan, contextParallel: undefined, dataParallel: 8, zeroStage: 3 }, llama, h100, w)).toBeUndefined();
  });
  it("property: every plan enumeratePlans lists keeps the rules, and the 3D space lists no plan beyond three dimensions", () => {
    const plans = enumeratePlans(mixtral, h100, { ...w, globalBatch: 256 }, { microBatches: [1, 2], recomputes: ["none"] });
    fc.assert(fc.property(fc.integer({ min: 0, max: plans.length - 1 }), (i) => { expect(layoutRule(plans[i], mixtral, h100, w)).toBeUndefined(); }), { numRuns: 200 });
    expect(enumeratePlans(mixtral, h100, w, { ...THREE_D_SPACE, microBatches: [1] }).some((p) => p.contextParallel || p.expertParallel || p.fp8)).toBe(false);
  });
});

describe("judgePlans", () => {
  it("skips exactly the FP8 twins of plans over memory, and the search's ranking is the unpruned one", () => {
    const space = { microBatches: [1, 2], recomputes: ["none", "full"], tensorParallel: [1, 8], pipelineParallel: [1, 4] } as const;
    const plans = enumeratePlans(mixtral, h100, { ...w, globalBatch: 256 }, space);
    const { results, pruned } = judgePlans(mixtral, plans, h100, { ...w, globalBatch: 256 });
    expect(results.length + pruned).toBe(plans.length);
    expect(pruned).toBeGreaterThan(0);
    const full = searchPlans(mixtral, h100, { ...w, globalBatch: 256 }, space);
    const cache = new Map<string, unknown>();
    // Judging every plan (no pruning) finds the same plans that fit: no skipped twin would have fitted.
    const fitting = plans.map((p) => evaluatePlan(mixtral, p, h100, { ...w, globalBatch: 256 }, { cache })).filter((r) => r.fits);
    expect(full.ranked.map((r) => r.label).sort()).toEqual(fitting.map((r) => r.label).sort());
    expect(full.ranked.map((r) => r.tokensPerS)).toEqual(fitting.map((r) => r.tokensPerS).sort((a, b) => b - a));
  });
});
