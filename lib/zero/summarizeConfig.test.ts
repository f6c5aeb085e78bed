import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { readFileSync } from "node:fs";
import { summarizeConfig } from "./summarizeConfig.js";

const file = (n: string) => readFileSync(new URL(`./configs/${n}`, import.meta.url), "utf8");

describe("summarizeConfig(kind, text)", () => {
  it("a ZeRO-3 NVMe config with legacy, not-modelled and misspelt keys: every one reported, nothing refused", () => {
    const s = summarizeConfig("deepspeed", file("ds_zero3_nvme.json"), { worldSize: 8, hiddenSize: 5120 });
    if (!s.ok) throw new Error(s.error);
    const v = Object.fromEntries(s.settings.map((x) => [x.setting, x.value]));
    expect(v["ZeRO stage"]).toBe("3");
    expect(v.precision).toBe("bf16");
    expect(v.train_batch_size).toMatch(/^64 = 2 × 4 × 8/);
    expect(v["optimizer offload"]).toBe("nvme (pipeline_read on, pipeline_write on, 4 buffers)");
    expect(v.aio).toMatch(/queue_depth 16/);
    expect(s.deprecated.map((d) => d.split(/[ :]/)[0])).toEqual(["bfloat16", "zero_optimization.stage3_gather_fp16_weights_on_model_save"]);
    expect(s.notModelled.map((n) => n.split(":")[0])).toEqual(["activation_checkpointing", "wandb", "steps_per_print", "zero_optimization.stage3_gather_16bit_weights_on_model_save"]);
    expect(s.ignored[0]).toMatch(/^wall_clock_breakdwon: .*did you mean "wall_clock_breakdown"/);
    expect(v["overlap_comm / contiguous_gradients"]).toBe("true / true"); // "true" read as pydantic reads it
  });

  it("the Trainer's fsdp_config and an accelerate config", () => {
    const h = summarizeConfig("hf-fsdp", file("hf_fsdp_config.json"), { worldSize: 8, fsdpWords: "full_shard auto_wrap" });
    expect(h.ok && Object.fromEntries(h.settings.map((x) => [x.setting, x.value])).sharding).toBe("FULL_SHARD: like ZeRO-3");
    const a = summarizeConfig("accelerate", file("accelerate_fsdp_old.yaml"), { worldSize: 8 });
    expect(a.ok && a.settings.find((x) => x.setting === "FSDP version / strategy")!.value).toBe("1 / FULL_SHARD");
  });

  it("an error names the key and the allowed values, and is returned, not thrown", () => {
    expect(summarizeConfig("deepspeed", '{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 4}}', { worldSize: 8 })).toEqual({ ok: false, kind: "deepspeed", error: "zero_optimization.stage: must be 0, 1, 2 or 3, got 4" });
    const y = summarizeConfig("accelerate", "distributed_type: FSDP\nfsdp_config:\n  fsdp_sharding_strategy: 9\n", { worldSize: 8 });
    expect(!y.ok && y.error).toMatch(/9 is not a valid ShardingStrategy \(1 FULL_SHARD, 2 SHARD_GRAD_OP, 3 NO_SHARD, 4 HYBRID_SHARD, 5 HYBRID_SHARD_ZERO2\)/);
  });

  it("property: any text gives a summary or an error, never a throw", () => {
    fc.assert(fc.property(fc.constantFrom("deepspeed", "hf-fsdp", "accelerate" as const), fc.string(), (k, t) => {
      const s = summarizeConfig(k, t, { worldSize: 8 });
      expect(typeof s.ok).toBe("boolean");
    }), { seed: 13, numRuns: 200 });
  });
});
