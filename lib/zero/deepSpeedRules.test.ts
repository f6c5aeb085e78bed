import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { parseDeepSpeedConfig } from "./parseDeepSpeedConfig.js";
import { NOT_MODELLED_KEYS } from "./deepSpeedKeys.js";
import { shardingForEstimate } from "./shardingForEstimate.js";

// Every rule below is DeepSpeed's at commit edaa722 (v0.19.5+27): runtime/config.py, zero/config.py,
// zero/offload_config.py, precision_config.py, swap_tensor/aio_config.py, config_utils.py.
const base = { train_micro_batch_size_per_gpu: 1 };
const ws1 = { worldSize: 1 };
const parse = (extra: Record<string, unknown>) => parseDeepSpeedConfig({ ...base, ...extra }, undefined, ws1);

describe("parseDeepSpeedConfig: the stage as pydantic reads ZeroStageEnum(int, Enum)", () => {
  // Checked with pydantic 2.13 on a model of DeepSpeedZeroConfig's stage field (extra="forbid", use_enum_values):
  // "3", " 3", "3.0" and 3.0 give 3, true gives 1; 2.5, "three" and 4 are refused.
  it("accepts a stage written as a string or a whole float, and says what the Hugging Face Trainer does with a string", () => {
    for (const v of ["3", " 3", "3.0", 3.0]) expect(parse({ zero_optimization: { stage: v } }).stage).toBe(3);
    expect(parse({ zero_optimization: { stage: true } }).stage).toBe(1);
    expect(parse({ zero_optimization: { stage: "3" } }).notes.join("\n")).toMatch(/zero_optimization.stage is "3", not a number: DeepSpeed reads it as a stage .* the Hugging Face Trainer compares it with 3/);
    expect(parse({ zero_optimization: { stage: 3 } }).notes.join("\n")).not.toMatch(/not a number/);
    for (const v of [2.5, "three", 4, "4"]) expect(() => parse({ zero_optimization: { stage: v } })).toThrow(/zero_optimization.stage: must be 0, 1, 2 or 3/);
  });
});

describe("parseDeepSpeedConfig: the legacy keys DeepSpeed still accepts", () => {
  it("bfloat16 is read as bf16 when bf16 is absent (get_bfloat16_config), and loses to bf16 when both are given", () => {
    const legacy = parse({ bfloat16: { enabled: true } });
    expect(legacy.precision).toBe("bf16");
    expect(legacy.deprecated[0]).toMatch(/^bfloat16 → bf16/);
    const both = parse({ bfloat16: { enabled: true }, bf16: { enabled: false } });
    expect(both.precision).toBe("fp32");
    expect(both.deprecated[0]).toMatch(/bfloat16 \(legacy\) is ignored: bf16 is also given and wins/);
  });

  it("zero_optimization.cpu_offload: true becomes offload_optimizer {device: cpu}; given with offload_optimizer it is refused as DeepSpeed refuses it", () => {
    const c = parse({ zero_optimization: { stage: 2, cpu_offload: true } });
    expect(c.offloadOptimizer).toMatchObject({ device: "cpu", pin_memory: true });
    expect(c.deprecated[0]).toMatch(/cpu_offload → offload_optimizer/);
    expect(() => parse({ zero_optimization: { stage: 2, cpu_offload: true, offload_optimizer: { device: "cpu" } } })).toThrow(/Cannot provide deprecated parameter 'cpu_offload' and replacing parameter 'offload_optimizer' together/);
    expect(parse({ zero_optimization: { stage: 3, cpu_offload_param: true, cpu_offload: true } }).offloadParam).toMatchObject({ device: "cpu" });
    expect(parse({ zero_optimization: { stage: 2, cpu_offload_use_pin_memory: true } }).deprecated[0]).toMatch(/a warning only: it sets nothing/);
  });

  it("stage3_gather_fp16_weights_on_model_save is copied to its 16-bit successor; the old boolean zero_optimization is stage 1", () => {
    expect(parse({ zero_optimization: { stage: 3, stage3_gather_fp16_weights_on_model_save: true } }).deprecated[0]).toMatch(/stage3_gather_fp16_weights_on_model_save → stage3_gather_16bit_weights_on_model_save/);
    const old = parse({ zero_optimization: true, allgather_size: 2e8 });
    expect(old.stage).toBe(1);
    expect(old.knobs.allgather_bucket_size).toBe(2e8);
  });

  it("a field is accepted under its name or its stage3_ alias (populate_by_name)", () => {
    expect(parse({ zero_optimization: { stage: 3, prefetch_bucket_size: 1234 } }).knobs.stage3_prefetch_bucket_size).toBe(1234);
    expect(parse({ zero_optimization: { stage: 3, param_persistence_threshold: 0 } }).knobs.stage3_param_persistence_threshold).toBe(0);
  });
});

describe("parseDeepSpeedConfig: NVMe offload's aio block and pipelining", () => {
  it("reads the aio block with DeepSpeed's defaults, and offload_optimizer's pipeline_read/pipeline_write", () => {
    const c = parse({ aio: { block_size: 262144, queue_depth: 32, single_submit: false }, zero_optimization: { stage: 3, offload_optimizer: { device: "nvme", nvme_path: "/nvme", pipeline_read: true, pipeline_write: true }, offload_param: { device: "nvme", nvme_path: "/nvme" } } });
    expect(c.aio).toEqual({ block_size: 262144, queue_depth: 32, intra_op_parallelism: 1, single_submit: false, overlap_events: true, use_gds: false });
    expect(c.offloadOptimizer).toMatchObject({ device: "nvme", pipeline_read: true, pipeline_write: true, buffer_count: 4 });
    expect(c.offloadParam).toMatchObject({ device: "nvme", buffer_count: 5, buffer_size: 1e8 });
  });

  it("an unknown aio key is ignored (get_scalar_param reads six keys) and reported; NVMe without aio notes the defaults", () => {
    expect(parse({ aio: { block_sise: 1 } }).ignored[0]).toMatch(/^aio.block_sise: .* \(did you mean "block_size"\?\)/);
    // DeepSpeed v0.16.4 (PR #7056) renamed thread_count; a config written for an older release loses it silently.
    expect(parse({ aio: { thread_count: 2 } }).ignored[0]).toMatch(/^aio.thread_count: not an aio key; .* \(renamed intra_op_parallelism in DeepSpeed v0\.16\.4, PR #7056: write that\)/);
    expect(parse({ zero_optimization: { stage: 3, offload_optimizer: { device: "nvme" } } }).notes).toContain("NVMe offload without an aio block: DeepSpeed uses the aio defaults (block_size 1 MiB, queue_depth 8, …)");
  });

  it("offload_param below stage 3 and offload_optimizer at stage 0 are ignored, as DeepSpeed ignores them; a partial ratio needs stage 3", () => {
    const c = parse({ zero_optimization: { stage: 2, offload_param: { device: "cpu" } } });
    expect(c.offloadParam).toBeNull();
    expect(c.notes).toContain("zero_optimization.offload_param is ignored at stage 2: DeepSpeed reads it only at stage 3");
    expect(parse({ zero_optimization: { stage: 0, offload_optimizer: { device: "cpu" } } }).offloadOptimizer).toBeNull();
    expect(() => parse({ zero_optimization: { stage: 2, offload_optimizer: { device: "cpu", ratio: 0.5 } } })).toThrow(/Partial offloading only supported for ZeRO Stage 3/);
    expect(() => parse({ zero_optimization: { stage: 3, offload_optimizer: { device: "cpu", colour: 1 } } })).toThrow(/zero_optimization.offload_optimizer: unknown key "colour"/);
  });
});

describe("parseDeepSpeedConfig: keys the course does not model", () => {
  it("activation_checkpointing, sparse_attention, flops_profiler, wandb and Lamb's parameters are read and reported, not refused", () => {
    const c = parse({
      activation_checkpointing: { partition_activations: true, cpu_checkpointing: true }, sparse_attention: { mode: "fixed", block: 16 },
      flops_profiler: { enabled: true }, wandb: { enabled: true, project: "p" },
      optimizer: { type: "Lamb", params: { lr: 1e-3, max_coeff: 0.3, min_coeff: 0.01 } }, zero_optimization: { stage: 1, zero_quantized_weights: true },
    });
    expect(c.stage).toBe(1);
    expect(c.optimizerType).toBe("Lamb");
    expect(c.notModelled.map((n) => n.split(":")[0])).toEqual(["activation_checkpointing", "sparse_attention", "flops_profiler", "wandb", "zero_optimization.zero_quantized_weights", "optimizer.params max_coeff, min_coeff"]);
  });

  it("the monitor blocks are pydantic models with extra=\"forbid\": an unknown key there is refused", () => {
    expect(() => parse({ wandb: { enabled: true, entity: "me" } })).toThrow(/wandb: unknown key "entity" \(DeepSpeed's pydantic model forbids extra fields; allowed: enabled, group, team, project\)/);
  });

  it("property: adding any set of not-modelled keys never changes the modelled settings, and each is reported once", () => {
    const keys = Object.keys(NOT_MODELLED_KEYS).filter((k) => !["tensorboard", "wandb", "csv_monitor", "comet", "comms_logger", "elasticity"].includes(k));
    const ref = parse({ zero_optimization: { stage: 2 }, bf16: { enabled: true } });
    fc.assert(fc.property(fc.subarray(keys), (ks) => {
      const c = parse({ zero_optimization: { stage: 2 }, bf16: { enabled: true }, ...Object.fromEntries(ks.map((k) => [k, {}])) });
      expect([c.stage, c.precision, c.knobs]).toEqual([ref.stage, ref.precision, ref.knobs]);
      expect(c.notModelled.length).toBe(ks.length);
    }), { seed: 11, numRuns: 100 });
  });
});

describe("parseDeepSpeedConfig: values as pydantic coerces them, and precision", () => {
  it("\"true\" is a boolean and \"500000000\" an integer in the pydantic blocks", () => {
    const c = parse({ zero_optimization: { stage: 2, overlap_comm: "true", contiguous_gradients: "no", reduce_bucket_size: "500000000" } });
    expect([c.knobs.overlap_comm, c.knobs.contiguous_gradients, c.knobs.reduce_bucket_size]).toEqual([true, false, 5e8]);
    expect(() => parse({ zero_optimization: { stage: 2, overlap_comm: "maybe" } })).toThrow(/zero_optimization.overlap_comm: must be a boolean/);
  });

  it("no fp16 or bf16 block: fp32, and the notes say so", () => {
    const c = parse({});
    expect(c.precision).toBe("fp32");
    expect(c.notes).toContain("neither fp16 nor bf16 is enabled: DeepSpeed trains in fp32");
  });

  it("a file with comments: the error says DeepSpeed's hjson would read it, the Trainer's json.load would not", () => {
    expect(() => parseDeepSpeedConfig('{"train_micro_batch_size_per_gpu": 1, // micro\n}')).toThrow(/hjson, which allows comments and trailing commas/);
  });
});

describe("shardingForEstimate: the estimate does not take --precision's default for a config that says fp32", () => {
  const D = { microBatch: 1, precision: "bf16" as const };
  const noBlock = JSON.stringify({ train_micro_batch_size_per_gpu: 4, zero_optimization: { stage: 2 } });
  it("no --precision: fp32 (DeepSpeed's default), with a note; the config's micro-batch is taken", () => {
    const o = shardingForEstimate({ deepspeed: noBlock, dataParallel: 8, defaults: D });
    expect([o.precision, o.microBatch]).toEqual(["fp32", 4]);
    expect(o.notes.join("\n")).toMatch(/neither fp16 nor bf16, so DeepSpeed trains in fp32; give --precision bf16/);
  });

  it("--precision bf16 given: the Trainer (Accelerate's set_mixed_precision) adds the bf16 block, so bf16", () => {
    const o = shardingForEstimate({ deepspeed: noBlock, dataParallel: 8, precision: "bf16", defaults: D });
    expect(o.precision).toBe("bf16");
    expect(o.notes.join("\n")).toMatch(/no bf16 block: the Hugging Face Trainer \(Accelerate's DeepSpeedPlugin.set_mixed_precision\) adds/);
  });

  it("--precision given against an enabled block is refused, as the Trainer and Accelerate refuse it", () => {
    const fp16 = JSON.stringify({ train_micro_batch_size_per_gpu: 1, fp16: { enabled: true } });
    expect(() => shardingForEstimate({ deepspeed: fp16, dataParallel: 8, precision: "bf16", defaults: D })).toThrow(/--bf16 cannot be used when fp16 is enabled/);
    expect(() => shardingForEstimate({ deepspeed: fp16, dataParallel: 8, precision: "fp32", defaults: D })).toThrow(/fp16.enabled is true but --fp16 is false/);
    expect(shardingForEstimate({ deepspeed: fp16, dataParallel: 8, defaults: D }).precision).toBe("fp16");
  });
});
