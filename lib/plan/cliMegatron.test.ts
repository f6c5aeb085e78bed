import { describe, expect, it } from "vitest";
import { main } from "./cli.js";

const SCRIPT = "lib/plan/configs/megatron-llama2-7b.sh";

describe("npm run plan -- --megatron-args (main)", () => {
  it("judges the launch's layout and says where it ranks among the plans that fit", () => {
    const out = JSON.parse(main(["--megatron-args", SCRIPT, "--gpu", "h100-80gb", "--json", "--top", "3"]).stdout);
    expect(out.megatron.label).toBe("dp4 tp2 pp2 zero1 b2×16 selective flash sp");
    expect(out.megatron.fits).toBe(true);
    expect(out.megatron.rank.rank).toBeGreaterThanOrEqual(1);
    expect(out.megatron.rank.rank).toBeLessThanOrEqual(out.megatron.rank.of);
    const text = main(["--megatron-args", SCRIPT, "--gpu", "h100-80gb", "--top", "3"]).stdout;
    expect(text).toMatch(/^Megatron-LM layout of lib\/plan\/configs\/megatron-llama2-7b\.sh: dp4 tp2 pp2 zero1 b2×16 selective flash sp: rank \d+ of [\d,]+ that fit/);
    expect(text).toMatch(/16 × NVIDIA H100 80GB .*global batch 128 × 4096 tokens; bf16/);
  });

  it("refuses flags the launch already sets, a world size that contradicts it, and a missing file (path as typed)", () => {
    expect(main(["--megatron-args", SCRIPT, "--model", "llama-2-7b"]).stderr).toMatch(/--model and --megatron-args both set it/);
    expect(main(["--megatron-args", SCRIPT, "--global-batch", "64"]).stderr).toMatch(/--global-batch and --megatron-args both set it/);
    expect(main(["--megatron-args", SCRIPT, "--gpus", "8"]).stderr).toMatch(/--gpus \(8\) and the launch's torchrun world size \(16\) differ/);
    expect(main(["--megatron-args", "./My_Run.sh"]).stderr).toMatch(/--megatron-args "\.\/My_Run\.sh": no such file/);
  });

  it("a mixture of experts is refused by the planner, which sends the reader to the estimate", () => {
    expect(main(["--model", "mixtral-8x7b", "--gpus", "64", "--global-batch", "256"]).stderr).toMatch(/is a mixture of experts \(mixtral: 8 experts, 2 per token\): the planner does not model expert parallelism/);
  });
});
