import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { parseDeepSpeedConfig } from "./parseDeepSpeedConfig.js";
import { parseHfTrainerArgs } from "./parseHfTrainerArgs.js";
import { NOTES_TRAINER_ARGS, NOTES_ZERO2_CONFIG } from "./notesZero2Config.js";
import { fsdpToZero, fsdpCommPerRank, fsdpMixedPrecision } from "./fsdpStrategy.js";
import { zeroStepCommunication } from "./zeroStepCommunication.js";
import { reductionError } from "./reductionError.js";

const V017 = { release: "v0.17.0" as const };

describe("parseDeepSpeedConfig", () => {
  it("the notes' config is refused by current DeepSpeed rules (min_loss_scale 1e-10 must be an integer since v0.17.1)", () => {
    expect(() => parseDeepSpeedConfig(NOTES_ZERO2_CONFIG, NOTES_TRAINER_ARGS)).toThrow(/min_loss_scale must be an integer >= 1/);
  });

  it("the notes' ZeRO-2 config with the notes' Trainer arguments: stage 2, fp16 dynamic scaling, buckets 1e8, batch 8 × 8 × 8 = 512", () => {
    const c = parseDeepSpeedConfig(NOTES_ZERO2_CONFIG, NOTES_TRAINER_ARGS, V017);
    expect(c.stage).toBe(2);
    expect(c.precision).toBe("fp16");
    expect(c.fp16?.kind).toBe("dynamic");
    expect(c.knobs.reduce_bucket_size).toBe(100_000_000);
    expect(c.knobs.overlap_comm).toBe(true);
    expect([c.trainBatchSize, c.microBatchPerGpu, c.gradientAccumulationSteps, c.dataParallelSize]).toEqual([512, 8, 8, 8]);
    expect(c.gradientClipping).toBe(1); // --max_grad_norm's default
    expect(c.offloadOptimizer).toBeNull();
  });

  it("the JSON file in configs/ is the same config", () => {
    const text = readFileSync(new URL("./configs/ds_zero2_no_offload.json", import.meta.url), "utf8");
    expect(parseDeepSpeedConfig(text, NOTES_TRAINER_ARGS, V017).resolved).toEqual(parseDeepSpeedConfig(NOTES_ZERO2_CONFIG, NOTES_TRAINER_ARGS, V017).resolved);
  });

  it("\"auto\" without the Trainer's arguments is an error naming the key", () => {
    expect(() => parseDeepSpeedConfig(NOTES_ZERO2_CONFIG)).toThrow(/is "auto": only the Hugging Face Trainer fills it/);
  });

  it("ZeRO-3 \"auto\" buckets follow the Trainer's hidden_size rule (h², 0.9h², 10h)", () => {
    const c = parseDeepSpeedConfig({ train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 3, reduce_bucket_size: "auto", stage3_prefetch_bucket_size: "auto", stage3_param_persistence_threshold: "auto" } }, { world_size: 4, per_device_train_batch_size: 1, hidden_size: 100 });
    expect([c.knobs.reduce_bucket_size, c.knobs.stage3_prefetch_bucket_size, c.knobs.stage3_param_persistence_threshold]).toEqual([10000, 9000, 1000]);
  });

  it("train_batch_size inconsistent with micro × accumulation × DP is an error naming the fields", () => {
    expect(() => parseDeepSpeedConfig({ train_batch_size: 100, train_micro_batch_size_per_gpu: 8, gradient_accumulation_steps: 8 }, undefined, { worldSize: 2 })).toThrow(/train_batch_size \(100\) must equal train_micro_batch_size_per_gpu \(8\) × gradient_accumulation_steps \(8\) × data-parallel size \(2\) = 128/);
    expect(() => parseDeepSpeedConfig({ train_batch_size: 100, train_micro_batch_size_per_gpu: 8, gradient_accumulation_steps: 8 })).toThrow(/100 is not a multiple of 64/);
    expect(parseDeepSpeedConfig({ train_batch_size: 128, train_micro_batch_size_per_gpu: 8, gradient_accumulation_steps: 8 }).dataParallelSize).toBe(2);
    expect(() => parseDeepSpeedConfig({ ...NOTES_ZERO2_CONFIG, train_batch_size: 256 }, NOTES_TRAINER_ARGS, V017)).toThrow(/train_batch_size is 256 but world_size × --per_device_train_batch_size × --gradient_accumulation_steps is 512/);
  });

  it("unknown keys in a pydantic block, bad values and contradictions are errors naming the key", () => {
    expect(() => parseDeepSpeedConfig({ train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 2, stage4_magic: true } }, undefined, { worldSize: 1 })).toThrow(/zero_optimization: unknown key "stage4_magic" \(DeepSpeedZeroConfig forbids extra fields\)/);
    expect(() => parseDeepSpeedConfig({ train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 2, reduce_bucket_size: -1 } }, undefined, { worldSize: 1 })).toThrow(/zero_optimization.reduce_bucket_size: must be an integer >= 0, got -1/);
    expect(() => parseDeepSpeedConfig({ train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 5 } }, undefined, { worldSize: 1 })).toThrow(/zero_optimization.stage: must be 0, 1, 2 or 3, got 5/);
    expect(() => parseDeepSpeedConfig({ train_micro_batch_size_per_gpu: 1, fp16: { enabled: true }, bf16: { enabled: true } }, undefined, { worldSize: 1 })).toThrow(/fp16.enabled and bf16.enabled are both true/);
    expect(() => parseDeepSpeedConfig("{oops", undefined, { worldSize: 1 })).toThrow(/not valid JSON/);
  });

  it("a misspelt top-level key is ignored, as DeepSpeed ignores it, and reported with a suggestion", () => {
    const c = parseDeepSpeedConfig({ train_micro_batch_size_per_gpu: 1, zero_optimisation: {} }, undefined, { worldSize: 1 });
    expect(c.stage).toBe(0);
    expect(c.ignored[0]).toMatch(/^zero_optimisation: not a key DeepSpeed reads; it ignores it \(did you mean "zero_optimization"\?\)/);
  });

  it("use_multi_rank_bucket_allreduce (DeepSpeed ≥ 0.12.4, zero/config.py) is accepted and must be a boolean as pydantic reads one (\"no\" is false)", () => {
    expect(() => parseDeepSpeedConfig({ train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 2, use_multi_rank_bucket_allreduce: false } }, undefined, { worldSize: 1 })).not.toThrow();
    expect(() => parseDeepSpeedConfig({ train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 2, use_multi_rank_bucket_allreduce: "no" } }, undefined, { worldSize: 1 })).not.toThrow();
    expect(() => parseDeepSpeedConfig({ train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 2, use_multi_rank_bucket_allreduce: "maybe" } }, undefined, { worldSize: 1 })).toThrow(/zero_optimization.use_multi_rank_bucket_allreduce/);
  });

  it("offload blocks are parsed and typed for the offload chapter", () => {
    const c = parseDeepSpeedConfig({ train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 3, offload_optimizer: { device: "cpu", pin_memory: true }, offload_param: { device: "nvme", nvme_path: "/local" } } }, undefined, { worldSize: 8 });
    expect(c.offloadOptimizer).toMatchObject({ device: "cpu", pin_memory: true, buffer_count: 4 });
    expect(c.offloadParam).toMatchObject({ device: "nvme", nvme_path: "/local" });
  });

  it("round trip: parsing the resolved config again gives the same settings", () => {
    const once = parseDeepSpeedConfig(NOTES_ZERO2_CONFIG, NOTES_TRAINER_ARGS, V017);
    const twice = parseDeepSpeedConfig(once.resolved, NOTES_TRAINER_ARGS, V017);
    expect(twice.knobs).toEqual(once.knobs);
    expect(twice.trainBatchSize).toBe(once.trainBatchSize);
  });
});

describe("parseHfTrainerArgs", () => {
  it("the notes' --fsdp \"full_shard auto_wrap\" with an --fsdp_config", () => {
    const a = parseHfTrainerArgs(["--fsdp", "full_shard auto_wrap", "--fsdp_config", "fsdp.json"], () => ({ fsdp_transformer_layer_cls_to_wrap: "LlamaDecoderLayer" }));
    expect(a).toMatchObject({ fsdp: "FULL_SHARD", wrap: "layer", fsdpOffload: false, fsdpConfigPath: "fsdp.json", deepspeed: null });
    expect(parseHfTrainerArgs(["--fsdp", "shard_grad_op auto_wrap", "--fsdp_config", "f.json"], () => ({ min_num_params: 1000 })).wrap).toEqual({ minNumParams: 1000 });
    expect(parseHfTrainerArgs(["--fsdp=full_shard"]).wrap).toBe("root");
    expect(parseHfTrainerArgs(["--deepspeed", "‘ds_zero2_no_offload.json’"]).deepspeed).toBe("ds_zero2_no_offload.json");
  });

  it("errors name the flag and the key", () => {
    expect(() => parseHfTrainerArgs(["--fsdp", "zero3"])).toThrow(/--fsdp: unknown option "zero3"/);
    expect(() => parseHfTrainerArgs(["--fsdp", "full_shard", "--deepspeed", "x.json"])).toThrow(/exclude each other/);
    expect(() => parseHfTrainerArgs(["--fsdp", "full_shard auto_wrap", "--fsdp_config", "f"], () => ({ min_num_params: 5, transformer_layer_cls_to_wrap: "X" }))).toThrow(/`min_num_params` and `transformer_layer_cls_to_wrap` are mutually exclusive/);
    // The Trainer ignores keys it does not read.
    expect(parseHfTrainerArgs(["--fsdp", "full_shard", "--fsdp_config", "f"], () => ({ fsdp_colour: 1 })).fsdpConfig!.ignored).toEqual(["fsdp_config.colour: not a key the Trainer reads; it ignores it"]);
  });
});

describe("FSDP", () => {
  it("fsdpToZero maps the strategies to stages; HYBRID_SHARD shards inside a group", () => {
    expect(fsdpToZero("FULL_SHARD", 8).stage).toBe(3);
    expect(fsdpToZero("SHARD_GRAD_OP", 8)).toMatchObject({ stage: 3, zeroAnalogue: 2, reshardAfterForward: false });
    expect(fsdpToZero("NO_SHARD", 8).stage).toBe(0);
    expect(fsdpToZero("HYBRID_SHARD", 16, 8)).toEqual({ stage: 3, zeroAnalogue: 3, reshardAfterForward: true, shardRanks: 8, replicas: 2 });
    expect(() => fsdpToZero("HYBRID_SHARD", 12, 8)).toThrow(/shardGroupSize \(8\) must divide numRanks \(12\)/);
    expect(() => fsdpToZero("ZERO2", 8)).toThrow(/strategy must be one of/);
  });

  it("fsdpCommPerRank equals ZeRO's closed forms per rank (FULL_SHARD = stage 3, NO_SHARD = stage 0)", () => {
    expect(fsdpCommPerRank("FULL_SHARD", 1000, 4)).toBe(zeroStepCommunication({ stage: 3, dataParallel: 4, numParams: 1000 }).elementsSentPerRank);
    expect(fsdpCommPerRank("NO_SHARD", 1000, 4)).toBe(zeroStepCommunication({ stage: 0, dataParallel: 4, numParams: 1000 }).elementsSentPerRank);
    expect(fsdpCommPerRank("HYBRID_SHARD", 1600, 16, 8)).toBe(3 * 1600 * 7 / 8 + 2 * 200 * 1 / 2);
  });

  it("fsdpMixedPrecision: reduce_dtype defaults to param_dtype; bad dtypes name the field", () => {
    expect(fsdpMixedPrecision({ param_dtype: "bf16" })).toEqual({ precision: "bf16", reduceDtype: "bf16" });
    expect(() => fsdpMixedPrecision({ param_dtype: "bf16", reduce_dtype: "int8" as never })).toThrow(/reduce_dtype must be one of/);
  });
});

describe("reductionError", () => {
  it("bf16 sums lose accuracy as P grows; fp32 stays within its (P−1)·2⁻²⁴ bound", () => {
    const b8 = reductionError(8, "bf16"), b64 = reductionError(64, "bf16");
    expect(b64.medianRelError).toBeGreaterThan(b8.medianRelError);
    expect(b8.medianRelError).toBeGreaterThan(2 ** -10);
    expect(reductionError(1, "bf16").maxRelError).toBe(0);
    const f = reductionError(64, "fp32");
    expect(f.medianRelError).toBeLessThan(63 * 2 ** -24);
  });
});

describe("the notes' config drives the simulation", () => {
  it("zeroConfigFromDeepSpeed: stage 2, fp16 at 2^16, the notes' buckets; the run equals stage 0 (DDP) on the same settings", async () => {
    const { zeroConfigFromDeepSpeed } = await import("./zeroConfigFromDeepSpeed.js");
    const { trainZero } = await import("./trainZero.js");
    const c = zeroConfigFromDeepSpeed(parseDeepSpeedConfig(NOTES_ZERO2_CONFIG, NOTES_TRAINER_ARGS, V017), 3);
    expect(c).toMatchObject({ stage: 2, precision: "fp16", lossScale: 65536 });
    const run = trainZero({ ...c, steps: 2 });
    expect(run.master).toEqual(trainZero({ ...c, stage: 0, steps: 2 }).master);
    expect(run.losses.every(Number.isFinite)).toBe(true);
  });
});
