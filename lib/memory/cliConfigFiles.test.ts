import { describe, expect, it } from "vitest";
import { main } from "./cli.js";

const json = (argv: string[]) => {
  const r = main([...argv, "--json"]);
  if (r.code !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
};

describe("npm run estimate: configuration files read as their frameworks read them", () => {
  it("--fsdp quotes a missing path as typed (it was upper-cased)", () => {
    expect(main(["--model", "llama-2-13b", "--fsdp", "./my_fsdp.yaml"]).stderr).toMatch(/^estimate: --fsdp "\.\/my_fsdp\.yaml": no such file/);
    expect(main(["--model", "llama-2-13b", "--fsdp", "zero3"]).stderr).toMatch(/--fsdp: unknown option "zero3"/);
  });

  it("--fsdp with an accelerate config: its strategy, mixed precision and num_processes", () => {
    const a = json(["--model", "llama-2-13b", "--fsdp", "lib/zero/configs/accelerate_fsdp_old.yaml"]);
    const b = json(["--model", "llama-2-13b", "--gpus", "8", "--zero", "3", "--precision", "bf16"]);
    expect([a.zeroStage, a.precision, a.dataParallel]).toEqual([3, "bf16", 8]);
    expect(a.perGpu).toEqual(b.perGpu);
  });

  it("--fsdp words with --fsdp-config (the Trainer's JSON, string booleans): activation_checkpointing means --recompute full", () => {
    const a = json(["--model", "llama-2-13b", "--gpus", "8", "--fsdp", "full_shard auto_wrap", "--fsdp-config", "lib/zero/configs/hf_fsdp_config.json"]);
    expect(a.perGpu).toEqual(json(["--model", "llama-2-13b", "--gpus", "8", "--zero", "3", "--recompute", "full"]).perGpu);
    expect(main(["--model", "llama-2-13b", "--fsdp-config", "lib/zero/configs/hf_fsdp_config.json"]).stderr).toMatch(/--fsdp-config needs --fsdp/);
  });

  it("--deepspeed without an fp16/bf16 block trains in fp32 unless --precision is given (then the Trainer adds the block)", () => {
    const cfg = "lib/zero/configs/ds_zero3_fp32.json";
    expect(json(["--model", "llama-2-7b", "--gpus", "8", "--deepspeed", cfg]).precision).toBe("fp32");
    expect(json(["--model", "llama-2-7b", "--gpus", "8", "--deepspeed", cfg, "--precision", "bf16"]).precision).toBe("bf16");
  });

  it("--megatron-args sets the model and the layout; a flag that sets the same thing is refused", () => {
    const m = json(["--megatron-args", "lib/plan/configs/megatron-llama2-7b.sh"]);
    expect([m.params, m.dataParallel, m.precision, m.zeroStage]).toEqual([6_738_415_616, 4, "bf16", 1]);
    expect(main(["--megatron-args", "lib/plan/configs/megatron-llama2-7b.sh", "--tp", "4"]).stderr).toMatch(/--tp and --megatron-args both set it/);
  });

  it("a sequence beyond a rotary model's context is a warning, not a refusal; MoE prints the active parameters", () => {
    const w = json(["--model", "llama-2-7b", "--seq", "8192"]);
    expect(w.warnings[0]).toMatch(/^--seq 8,192 tokens are beyond the model's context of 4,096 tokens/);
    expect(main(["--model", "llama-2-7b", "--seq", "8192"]).stdout).toMatch(/^Warning: --seq 8,192 tokens/);
    expect(json(["--model", "mixtral-8x7b", "--gpus", "8", "--zero", "3"]).activeParams).toBe(12_879_925_248);
  });
});
