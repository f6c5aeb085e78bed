import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { readAccelerateConfig } from "./readAccelerateConfig.js";
import { readHfFsdpConfig, strToBool } from "./hfFsdpConfig.js";
import { fsdpWords } from "./parseHfTrainerArgs.js";
import { shardingForEstimate } from "./shardingForEstimate.js";

const file = (name: string) => readFileSync(new URL(`./configs/${name}`, import.meta.url), "utf8");
const D = { microBatch: 1, precision: "bf16" as const };

describe("the Trainer's --fsdp words (transformers 00349ae, FSDPOption)", () => {
  it("reads lower-case words; refuses upper case (FSDPOption is case-sensitive), offload alone, and full_shard with shard_grad_op", () => {
    expect(fsdpWords("shard_grad_op offload auto_wrap")).toEqual({ fsdp: "SHARD_GRAD_OP", offload: true, autoWrap: true });
    expect(() => fsdpWords("FULL_SHARD")).toThrow(/unknown option "FULL_SHARD" \(FSDPOption values are lower case: full_shard\)/);
    expect(() => fsdpWords("offload")).toThrow(/`--fsdp offload` can't work on its own/);
    expect(() => fsdpWords("full_shard shard_grad_op")).toThrow(/`--fsdp full_shard` is not compatible with `--fsdp shard_grad_op`/);
  });
});

describe("readHfFsdpConfig: --fsdp_config as the Trainer reads it", () => {
  it("string booleans (\"true\", \"True\", true) are the same, through str_to_bool(str(v).lower())", () => {
    const c = readHfFsdpConfig(JSON.parse(file("hf_fsdp_config.json")));
    expect(c).toMatchObject({ useOrigParams: true, forwardPrefetch: false, syncModuleStates: true, cpuRamEfficientLoading: true, backwardPrefetch: "BACKWARD_PRE", transformerLayerClsToWrap: ["LlamaDecoderLayer"], activationCheckpointing: true });
    for (const v of ["true", "True", true, "yes", 1, "on"]) expect(strToBool("k", v)).toBe(true);
    for (const v of ["false", "False", false, "no", 0, "off"]) expect(strToBool("k", v)).toBe(false);
    expect(() => readHfFsdpConfig({ use_orig_params: "maybe" })).toThrow(/fsdp_config.use_orig_params: invalid truth value "maybe"/);
  });

  it("activation_checkpointing is read raw by the Trainer: the string \"false\" turns it on, and the notes say so", () => {
    const c = readHfFsdpConfig({ activation_checkpointing: "false" });
    expect(c.activationCheckpointing).toBe(true);
    expect(c.notes[0]).toMatch(/the string "false": .* activation checkpointing is ON/);
  });

  it("refuses what the Trainer refuses: sync_module_states false with cpu_ram_efficient_loading, both wrap policies", () => {
    expect(() => readHfFsdpConfig({ sync_module_states: "false", cpu_ram_efficient_loading: "true" })).toThrow(/`sync_module_states` must be "True"/);
    expect(() => readHfFsdpConfig({ min_num_params: 1e6, transformer_layer_cls_to_wrap: "X" })).toThrow(/mutually exclusive/);
    expect(readHfFsdpConfig({ min_num_params: 0, transformer_layer_cls_to_wrap: "X" }).minNumParams).toBe(0); // 0 is "unset" for the Trainer
  });

  it("version 2: reshard_after_forward decides, and the Trainer's default is false (SHARD_GRAD_OP-like)", () => {
    const dflt = shardingForEstimate({ fsdp: "full_shard auto_wrap", fsdpConfig: { version: 2 }, dataParallel: 8, defaults: D });
    expect(dflt.zeroStage).toBe(2);
    expect(shardingForEstimate({ fsdp: "full_shard", fsdpConfig: { fsdp_version: "2", reshard_after_forward: "true" }, dataParallel: 8, defaults: D }).zeroStage).toBe(3);
  });
});

describe("readAccelerateConfig: accelerate config files (accelerate 16cb6eb)", () => {
  it("the integer fsdp_sharding_strategy of older accelerate config is ShardingStrategy(n): 1 FULL_SHARD, 2 SHARD_GRAD_OP, 3 NO_SHARD, 4 HYBRID_SHARD, 5 HYBRID_SHARD_ZERO2", () => {
    const names = ["FULL_SHARD", "SHARD_GRAD_OP", "NO_SHARD", "HYBRID_SHARD", "HYBRID_SHARD_ZERO2"];
    for (let n = 1; n <= 5; n++) expect(readAccelerateConfig(`distributed_type: FSDP\nfsdp_config:\n  fsdp_sharding_strategy: ${n}\n`, "a.yaml").fsdp!.strategy).toBe(names[n - 1]);
    expect(() => readAccelerateConfig("distributed_type: FSDP\nfsdp_config:\n  fsdp_sharding_strategy: 6\n", "a.yaml")).toThrow(/6 is not a valid ShardingStrategy/);
    expect(readAccelerateConfig("distributed_type: FSDP\nfsdp_config:\n  sharding_strategy: shard_grad_op\n", "a.yaml").fsdp!.strategy).toBe("SHARD_GRAD_OP");
  });

  it("an old accelerate config (integer strategy, bf16, 8 processes) gives ZeRO-3, bf16, 8 GPUs; an unknown fsdp_config key is ignored and reported", () => {
    const a = readAccelerateConfig(file("accelerate_fsdp_old.yaml"), "old.yaml");
    expect(a).toMatchObject({ distributedType: "FSDP", mixedPrecision: "bf16", numProcesses: 8, fsdp: { strategy: "FULL_SHARD", version: 1, offloadParams: false } });
    expect(a.notes).toContain("fsdp_config.fsdp_backward_prefetch_policy: accelerate launch has no such argument; it is ignored");
    const o = shardingForEstimate({ accelerate: a, dataParallel: 8, defaults: D });
    expect(o).toMatchObject({ zeroStage: 3, precision: "bf16", numGpus: 8 });
  });

  it("a DeepSpeed config offloading to NVMe says where the offloaded bytes live (the drive, not host memory)", () => {
    const nvme = '{"train_micro_batch_size_per_gpu": 1, "bf16": {"enabled": true}, "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "nvme", "nvme_path": "/nvme"}, "offload_param": {"device": "nvme", "nvme_path": "/nvme"}}}';
    const o = shardingForEstimate({ deepspeed: nvme, dataParallel: 8, defaults: D });
    expect(o.offload).toBe("optimizer+params");
    expect(o.notes.join("\n")).toMatch(/offload to NVMe \(ZeRO-Infinity\): the "\(CPU, offloaded\)" bytes live on the NVMe drive, with pinned CPU buffers/);
    expect(shardingForEstimate({ deepspeed: nvme.replace(/nvme"/g, 'cpu"'), dataParallel: 8, defaults: D }).notes.join("\n")).not.toMatch(/NVMe/);
  });

  it("HYBRID_SHARD on one machine (accelerate's default num_machines 1) has one shard group and no replica: FULL_SHARD's memory; across machines it is refused", () => {
    const cfg = (machines: number, strategy: string) => readAccelerateConfig(`distributed_type: FSDP\nnum_machines: ${machines}\nnum_processes: ${8 * machines}\nfsdp_config:\n  fsdp_sharding_strategy: ${strategy}\n`, "h.yaml");
    const one = shardingForEstimate({ accelerate: cfg(1, "HYBRID_SHARD"), dataParallel: 8, defaults: D });
    expect(one).toMatchObject({ zeroStage: 3, numGpus: 8 });
    expect(one.notes.join("\n")).toMatch(/HYBRID_SHARD on one machine shards over all its GPUs with no replica: counted as FULL_SHARD/);
    expect(shardingForEstimate({ accelerate: cfg(1, "HYBRID_SHARD_ZERO2"), dataParallel: 8, defaults: D }).zeroStage).toBe(2);
    expect(() => shardingForEstimate({ accelerate: cfg(2, "HYBRID_SHARD"), dataParallel: 16, defaults: D })).toThrow(/HYBRID_SHARD shards inside a node and replicates across nodes/);
  });

  it("FSDP2 with activation checkpointing: reshard_after_forward true is ZeRO-3, and --recompute full unless given", () => {
    const o = shardingForEstimate({ accelerate: readAccelerateConfig(file("accelerate_fsdp2.yaml"), "fsdp2.yaml"), dataParallel: 8, defaults: D });
    expect(o).toMatchObject({ zeroStage: 3, recompute: "full" });
  });

  it("refuses unknown top-level keys with accelerate's message, and reads YAML 1.1 booleans as PyYAML does", () => {
    expect(() => readAccelerateConfig("distributed_type: FSDP\nfsdp_sharding: 1\n", "my.yaml")).toThrow(/The config file at my.yaml had unknown keys \(\["fsdp_sharding"\]\)/);
    expect(readAccelerateConfig("distributed_type: FSDP\nfsdp_config:\n  fsdp_offload_params: yes\n", "a.yaml").fsdp!.offloadParams).toBe(true);
    expect(() => readAccelerateConfig("distributed_type: FSDP\nfsdp_config:\n  fsdp_cpu_ram_efficient_loading: true\n  fsdp_sync_module_states: false\n", "a.yaml")).toThrow(/set `--fsdp_sync_module_states` to `True`/);
  });

  it("FSDP1's fsdp_reshard_after_forward (what accelerate config ≥ 1.6 writes) loses to fsdp_sharding_strategy's launcher default, and the notes say so", () => {
    const a = readAccelerateConfig("distributed_type: FSDP\nfsdp_config:\n  fsdp_version: 1\n  fsdp_reshard_after_forward: SHARD_GRAD_OP\n", "a.yaml");
    expect(a.fsdp!.strategy).toBe("FULL_SHARD");
    expect(a.notes[0]).toMatch(/fsdp_reshard_after_forward is SHARD_GRAD_OP but FSDP1 takes the strategy from fsdp_sharding_strategy \(absent: accelerate launch passes its default FULL_SHARD\)/);
  });

  it("the file's mixed_precision decides unless --precision is given (accelerate launch --mixed_precision overrides it); no mixed_precision is fp32", () => {
    const a = readAccelerateConfig("distributed_type: MULTI_GPU\nnum_processes: 4\n", "a.yaml");
    expect(shardingForEstimate({ accelerate: a, dataParallel: 4, defaults: D })).toMatchObject({ zeroStage: 0, precision: "fp32", numGpus: 4 });
    expect(shardingForEstimate({ accelerate: readAccelerateConfig("distributed_type: FSDP\nmixed_precision: fp16\n", "a"), dataParallel: 8, precision: "bf16", defaults: D }).precision).toBe("bf16");
    const ds = readAccelerateConfig("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\n  offload_optimizer_device: cpu\n  offload_param_device: cpu\nmixed_precision: bf16\n", "a");
    expect(shardingForEstimate({ accelerate: ds, dataParallel: 8, defaults: D })).toMatchObject({ zeroStage: 3, offload: "optimizer+params", precision: "bf16" });
    expect(shardingForEstimate({ accelerate: ds, dataParallel: 8, defaults: D }).ampDesign).toBeUndefined(); // DeepSpeed's own 16-bit model
  });

  it("MULTI_GPU (or NO) with mixed_precision bf16/fp16 is PyTorch AMP, torch.autocast around fp32 weights: amp design torch (alignment-handbook's ddp.yaml was counted with DeepSpeed's 16-bit weights)", () => {
    const ddp = (mp: string) => shardingForEstimate({ accelerate: readAccelerateConfig(`distributed_type: MULTI_GPU\nmixed_precision: ${mp}\nnum_processes: 8\n`, "a"), dataParallel: 8, defaults: D });
    expect(ddp("bf16")).toMatchObject({ zeroStage: 0, precision: "bf16", ampDesign: "torch" });
    expect(ddp("fp16").ampDesign).toBe("torch");
    expect(ddp("bf16").notes[0]).toMatch(/MULTI_GPU \(DDP, no sharding\), bf16 as PyTorch AMP/);
    expect(ddp("'no'").ampDesign).toBeUndefined(); // fp32: no autocast
    const fsdp = shardingForEstimate({ accelerate: readAccelerateConfig("distributed_type: FSDP\nmixed_precision: bf16\n", "a"), dataParallel: 8, defaults: D });
    expect(fsdp.ampDesign).toBeUndefined();
  });
});
