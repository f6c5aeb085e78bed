import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { parseModelConfig } from "../memory/index.js";
import { readAccelerateConfig } from "../zero/readAccelerateConfig.js";
import { loadPresetText } from "../memory/loadPresetText.js";
import { clusterPreset, exportPlan, megatronPlan, readMegatronLaunch, runNote, type Plan, type Workload } from "./index.js";

const llama = parseModelConfig(loadPresetText("llama-2-70b"));
const c = clusterPreset("64x-h100-80gb");
const w: Workload = { globalBatch: 1024, seqLen: 4096, precision: "bf16", optimizer: "adamw" };
const dp: Plan = { dataParallel: 64, tensorParallel: 1, pipelineParallel: 1, zeroStage: 3, offload: "optimizer+params", recompute: "full", sequenceParallel: false, attention: "flash", microBatch: 2, gradAccum: 8 };
const megatron: Plan = { dataParallel: 2, tensorParallel: 8, pipelineParallel: 4, zeroStage: 1, offload: "none", recompute: "selective", sequenceParallel: true, attention: "flash", microBatch: 1, gradAccum: 512 };

describe("exportPlan", () => {
  it("DeepSpeed: train_batch_size = micro × accumulation × d, the stage, the offload devices, bf16", () => {
    const ds = JSON.parse(exportPlan(dp, llama, c, w, "deepspeed"));
    expect(ds.train_batch_size).toBe(2 * 8 * 64);
    expect(ds.train_batch_size).toBe(w.globalBatch);
    expect(ds.train_micro_batch_size_per_gpu).toBe(2);
    expect(ds.gradient_accumulation_steps).toBe(8);
    expect(ds.zero_optimization.stage).toBe(3);
    expect(ds.zero_optimization.offload_optimizer.device).toBe("cpu");
    expect(ds.zero_optimization.offload_param.device).toBe("cpu");
    expect(ds.bf16).toEqual({ enabled: true });
    expect(ds.fp16).toBeUndefined();
  });
  it("Accelerate FSDP: FULL_SHARD for ZeRO-3, parameter offload, checkpointing, the decoder layer of the family", () => {
    const y = exportPlan(dp, llama, c, w, "fsdp");
    expect(y).toMatch(/^distributed_type: FSDP$/m);
    expect(y).toMatch(/^ {2}fsdp_sharding_strategy: FULL_SHARD$/m);
    expect(y).toMatch(/^ {2}fsdp_offload_params: true$/m);
    expect(y).toMatch(/^ {2}fsdp_activation_checkpointing: true$/m);
    expect(y).toMatch(/^ {2}fsdp_transformer_layer_cls_to_wrap: LlamaDecoderLayer$/m);
    expect(y).toMatch(/^num_machines: 8$/m);
    expect(y).toMatch(/^num_processes: 64$/m);
    expect(exportPlan({ ...dp, zeroStage: 2, offload: "none" }, llama, c, w, "fsdp")).toMatch(/fsdp_sharding_strategy: SHARD_GRAD_OP/);
  });
  it("Megatron-LM: the model's shape, t, p, the batches, GQA, sequence parallelism, recomputation, the distributed optimizer", () => {
    const a = exportPlan(megatron, llama, c, w, "megatron").replace(/\\\n\s*/g, "");
    for (const flag of ["--num-layers 80", "--hidden-size 8192", "--num-attention-heads 64", "--group-query-attention", "--num-query-groups 8",
      "--tensor-model-parallel-size 8", "--pipeline-model-parallel-size 4", "--micro-batch-size 1", "--global-batch-size 1024", "--bf16",
      "--sequence-parallel", "--recompute-granularity selective", "--use-flash-attn", "--use-distributed-optimizer", "--seq-length 4096",
      "--swiglu", "--normalization RMSNorm", "--position-embedding-type rope", "--untie-embeddings-and-output-weights", "--disable-bias-linear"]) {
      expect(a).toContain(flag);
    }
  });
  it("Megatron-LM builds GPT-2's block by default: a GPT-2 config adds none of the Llama flags", () => {
    const gpt2 = parseModelConfig(loadPresetText("gpt2"));
    const a = exportPlan({ ...megatron, tensorParallel: 4, pipelineParallel: 1, dataParallel: 16, gradAccum: 64, microBatch: 1 }, gpt2, c, { ...w, seqLen: 1024 }, "megatron");
    for (const flag of ["--swiglu", "--normalization", "--position-embedding-type", "--untie-embeddings", "--disable-bias-linear"]) expect(a).not.toContain(flag);
  });
  it("Megatron-LM: writes the overlaps the planner times (Megatron's defaults are off) and turns Megatron's default dropout (0.1) off for a model trained without it", () => {
    const a = exportPlan(megatron, llama, c, w, "megatron");
    for (const flag of ["--overlap-grad-reduce", "--overlap-param-gather", "--attention-dropout 0.0", "--hidden-dropout 0.0"]) expect(a).toContain(flag);
    const ddp = exportPlan({ ...megatron, zeroStage: 0 }, llama, c, w, "megatron");
    expect(ddp).toContain("--overlap-grad-reduce");
    expect(ddp).not.toContain("--overlap-param-gather"); // Megatron: only with the distributed optimizer
    const gpt2 = exportPlan({ ...megatron, tensorParallel: 4, pipelineParallel: 1, dataParallel: 16, gradAccum: 64 }, parseModelConfig(loadPresetText("gpt2")), c, { ...w, seqLen: 1024 }, "megatron");
    expect(gpt2).not.toContain("dropout"); // GPT-2 trains with dropout 0.1, Megatron's default
  });
  it("property: the Megatron export reads back (readMegatronLaunch) as the same plan and workload, with the overlaps the planner timed", () => {
    fc.assert(fc.property(fc.constantFrom(1, 2, 4, 8), fc.constantFrom(1, 2, 4, 8), fc.constantFrom(0, 1), fc.constantFrom("none", "selective", "full"), fc.boolean(), (t, p, z, r, sp) => {
      const d = 64 / (t * p);
      const plan: Plan = { dataParallel: d, tensorParallel: t, pipelineParallel: p, zeroStage: z, offload: "none", recompute: r as Plan["recompute"], sequenceParallel: sp && t > 1, attention: "flash", microBatch: 1, gradAccum: w.globalBatch / d };
      const run = readMegatronLaunch(`${exportPlan(plan, llama, c, w, "megatron")} --vocab-size ${llama.vocabSize}`, { worldSize: 64 });
      expect(megatronPlan(run, "adamw")).toEqual({ plan, workload: w });
      expect(run.runtime).toMatchObject({ overlapGradReduce: true, overlapParamGather: z === 1, dropout: false });
    }), { seed: 12, numRuns: 60 });
  });
  it("says what the file cannot hold: the Trainer's batch arguments (an accelerate config has no batch keys), gradient checkpointing, the attention kernel", () => {
    const y = exportPlan(dp, llama, c, w, "fsdp");
    expect(y.split("\n")[0]).toBe('# not in this file: --per_device_train_batch_size 2 --gradient_accumulation_steps 8, and attn_implementation="flash_attention_2" when loading the model');
    // The comment changes nothing accelerate reads: the file reads back as the plan.
    expect(readAccelerateConfig(y, "export.yaml")).toMatchObject({ distributedType: "FSDP", mixedPrecision: "bf16", numProcesses: 64, numMachines: 8, fsdp: { strategy: "FULL_SHARD", offloadParams: true, activationCheckpointing: true } });
    expect(runNote(dp, "deepspeed")).toBe('not in this file: --gradient_checkpointing, and attn_implementation="flash_attention_2" when loading the model');
    expect(runNote({ ...dp, recompute: "selective", attention: "eager" }, "deepspeed")).toMatch(/^not in this file: selective recomputation is Megatron's .* the Trainer has none/);
    expect(runNote({ ...dp, recompute: "none", attention: "eager" }, "deepspeed")).toBe("");
    expect(runNote(megatron, "megatron")).toBe("");
    // Megatron's export holds no tokenizer; read back without one, pretrain_gpt.py's GPT2BPETokenizer would set the vocabulary
    expect(runNote(megatron, "megatron", 32000)).toMatch(/^not in this file: the data and tokenizer arguments .* whose vocabulary must be the model's 32,000 \(without --tokenizer-type pretrain_gpt\.py takes GPT2BPETokenizer's 50,257\)$/);
  });
  it("torchrun: one line per node of the cluster", () => {
    const t = exportPlan(dp, llama, c, w, "torchrun");
    expect(t).toMatch(/^torchrun/);
    expect(t).toContain("--nnodes 8");
    expect(t).toContain("--nproc-per-node 8");
    expect(t).toContain("--rdzv-endpoint $MASTER_ADDR:29500");
  });
  it("refuses what a format cannot express, naming the alternative", () => {
    expect(() => exportPlan(megatron, llama, c, w, "deepspeed")).toThrow(/a DeepSpeed config has no tensor or pipeline size \(plan has t = 8, p = 4\): export megatron/);
    expect(() => exportPlan(dp, llama, c, w, "megatron")).toThrow(/Megatron-LM has no ZeRO-3/);
    expect(() => exportPlan({ ...dp, zeroStage: 1, offload: "none" }, llama, c, w, "fsdp")).toThrow(/FSDP has no strategy for ZeRO-1/);
    expect(() => exportPlan(dp, llama, c, w, "yaml" as never)).toThrow(/format must be deepspeed, fsdp, megatron or torchrun, got "yaml"/);
  });
});

describe("round trips through the zero chapter's parsers", () => {
  it("every DeepSpeed export parses back (lib/zero's parseDeepSpeedConfig) to the plan's stage, batch, precision and offload", async () => {
    const { parseDeepSpeedConfig } = await import("../zero/index.js");
    for (const stage of [0, 1, 2, 3] as const) for (const offload of ["none", "optimizer", "optimizer+params"] as const) for (const precision of ["fp16", "bf16"] as const) {
      if ((offload === "optimizer" && stage < 1) || (offload === "optimizer+params" && stage !== 3)) continue;
      const plan = { ...dp, zeroStage: stage, offload };
      const parsed = parseDeepSpeedConfig(exportPlan(plan, llama, c, { ...w, precision }, "deepspeed"), undefined, { worldSize: 64 });
      expect(parsed.stage).toBe(stage);
      expect(parsed.trainBatchSize).toBe(w.globalBatch);
      expect(parsed.microBatchPerGpu).toBe(plan.microBatch);
      expect(parsed.gradientAccumulationSteps).toBe(plan.gradAccum);
      expect(parsed.dataParallelSize).toBe(plan.dataParallel);
      expect(parsed.precision).toBe(precision);
      expect(parsed.offloadOptimizer !== null).toBe(offload !== "none");
      expect(parsed.offloadParam !== null).toBe(offload === "optimizer+params");
    }
  });
  it("every FSDP export's strategy maps back (lib/zero's fsdpToZero) to the plan's partitioning", async () => {
    const { fsdpToZero } = await import("../zero/index.js");
    const { parse } = await import("yaml");
    for (const stage of [0, 2, 3] as const) {
      const y = parse(exportPlan({ ...dp, zeroStage: stage, offload: "none" }, llama, c, w, "fsdp"));
      const m = fsdpToZero(y.fsdp_config.fsdp_sharding_strategy, y.num_processes);
      // SHARD_GRAD_OP shards parameters only outside forward and backward: at its peak it holds them whole, as ZeRO-2 does.
      expect(stage === 2 ? m.stage === 3 && !m.reshardAfterForward : m.stage === stage).toBe(true);
      expect(m.shardRanks).toBe(stage === 0 ? 1 : 64);
    }
  });
});
