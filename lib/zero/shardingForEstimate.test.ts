import { describe, expect, it } from "vitest";
import { main } from "../memory/cli.js";
import { estimateMemory } from "../memory/estimateMemory.js";
import { shardingForEstimate } from "./shardingForEstimate.js";

const CONFIG = "lib/zero/configs/ds_zero2_no_offload.json";
const D = { microBatch: 1, precision: "bf16" as const };
const json = (argv: string[]) => JSON.parse(main([...argv, "--json"]).stdout);

describe("npm run estimate -- --deepspeed / --fsdp", () => {
  it("the notes' ZeRO-2 config gives the same estimate as --zero 2 with the same flags", () => {
    const flags = ["--model", "llama-2-13b", "--gpus", "8", "--micro-batch", "8", "--precision", "fp16", "--recompute", "full"];
    expect(json([...flags, "--deepspeed", CONFIG]).perGpu).toEqual(json([...flags, "--zero", "2"]).perGpu);
  });

  it("--fsdp FULL_SHARD = --zero 3, SHARD_GRAD_OP = --zero 2, NO_SHARD = --zero 0", () => {
    for (const [s, z] of [["FULL_SHARD", "3"], ["shard_grad_op", "2"], ["NO_SHARD", "0"]]) {
      expect(json(["--params", "1e9", "--gpus", "8", "--fsdp", s]).perGpu).toEqual(json(["--params", "1e9", "--gpus", "8", "--zero", z]).perGpu);
    }
  });

  it("a config whose batch contradicts the flags, or two ways of setting the stage, is an error naming them", () => {
    const r = main(["--params", "1e9", "--deepspeed", CONFIG, "--zero", "3"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--zero and --deepspeed both set it/);
    expect(main(["--params", "1e9", "--fsdp", "HYBRID_SHARD"]).stderr).toMatch(/HYBRID_SHARD shards inside a node/);
    expect(main(["--params", "1e9", "--deepspeed", "nope.json"]).stderr).toMatch(/no such file/);
  });

  it("shardingForEstimate fills \"auto\" from the estimate's settings and reads offload blocks", () => {
    const text = JSON.stringify({ train_batch_size: "auto", train_micro_batch_size_per_gpu: "auto", bf16: { enabled: "auto" }, zero_optimization: { stage: 3, offload_optimizer: { device: "cpu" }, offload_param: { device: "cpu" } } });
    const o = shardingForEstimate({ deepspeed: text, dataParallel: 4, microBatch: 2, precision: "bf16", defaults: D });
    expect(o).toMatchObject({ zeroStage: 3, precision: "bf16", offload: "optimizer+params", microBatch: 2 });
    expect(estimateMemory({ params: 1e9, numGpus: 4, zeroStage: o.zeroStage, offload: o.offload, precision: "bf16", optimizer: "adamw", microBatch: 2, seqLen: 2048 }).perGpu.optimizerStates).toBe(0);
    expect(() => shardingForEstimate({ deepspeed: JSON.stringify({ train_micro_batch_size_per_gpu: 4 }), dataParallel: 4, microBatch: 2, precision: "bf16", defaults: D })).toThrow(/train_micro_batch_size_per_gpu is 4 but --per_device_train_batch_size is 2/);
    // Parameters without the optimizer: chapter 9 calls it an error, so the estimate does too (it would drop the optimizer states).
    const paramsOnly = JSON.stringify({ train_micro_batch_size_per_gpu: "auto", bf16: { enabled: "auto" }, zero_optimization: { stage: 3, offload_param: { device: "cpu" } } });
    expect(() => shardingForEstimate({ deepspeed: paramsOnly, dataParallel: 8, microBatch: 1, precision: "bf16", defaults: D })).toThrow(/^zero_optimization.offload_param needs zero_optimization.offload_optimizer too/);
  });
});
