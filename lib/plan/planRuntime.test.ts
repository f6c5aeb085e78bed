import { describe, expect, it } from "vitest";
import { megatronExtraStateBytes, planRuntime } from "./index.js";

describe("planRuntime and megatronExtraStateBytes", () => {
  it("Megatron-LM runs tensor or pipeline parallelism with its DDP or distributed optimizer and no offload; DeepSpeed the rest", () => {
    const p = { tensorParallel: 8, pipelineParallel: 1, zeroStage: 1 as const, offload: "none" as const };
    expect(planRuntime(p)).toBe("megatron");
    expect(planRuntime({ ...p, zeroStage: 3 })).toBe("deepspeed"); // Megatron-DeepSpeed
    expect(planRuntime({ ...p, offload: "optimizer" })).toBe("deepspeed");
    expect(planRuntime({ ...p, tensorParallel: 1 })).toBe("deepspeed"); // pure data parallelism
  });
  it("Megatron's table against DeepSpeed's 2 + 2 + 12: fp16 20 (4 + 16/d distributed), bf16 18 (6 + 12/d), fp32 16 (8 + 8/d)", () => {
    const ds = (stage: number, d: number) => (stage >= 1 ? 4 + 12 / d : 16);
    expect(ds(0, 1) + megatronExtraStateBytes("fp16", 0, 1)).toBe(20);
    expect(ds(1, 8) + megatronExtraStateBytes("fp16", 1, 8)).toBeCloseTo(4 + 16 / 8, 12);
    expect(ds(0, 1) + megatronExtraStateBytes("bf16", 0, 1)).toBe(18);
    expect(ds(1, 8) + megatronExtraStateBytes("bf16", 1, 8)).toBeCloseTo(6 + 12 / 8, 12);
    expect(megatronExtraStateBytes("fp32", 1, 8)).toBe(0); // DeepSpeed's fp32 ZeRO-1 is 4 + 4 + 8/d = 8 + 8/d too
  });
});
