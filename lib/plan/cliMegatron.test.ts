import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

  it("--gpus (or --cluster) replaces the launch's torchrun world (a script's node count is a placeholder: NUM_NODES=1, $SLURM_NNODES), with a note; the global batch stays, the accumulation follows", () => {
    const out = JSON.parse(main(["--megatron-args", SCRIPT, "--gpus", "32", "--gpu", "h100-80gb", "--json", "--top", "1"]).stdout);
    expect(out.megatron.plan).toMatchObject({ dataParallel: 8, tensorParallel: 2, pipelineParallel: 2, microBatch: 2, gradAccum: 8 }); // 128 = 2 · 8 · 8
    expect(out.megatron.notes.join("\n")).toMatch(/32 GPUs as given, not the text's torchrun 16/);
    const onPreset = JSON.parse(main(["--megatron-args", SCRIPT, "--cluster", "8x-a100-80gb", "--json", "--top", "1"]).stdout); // it used to refuse: "has 8 GPUs but the launch uses 16"
    expect(onPreset.megatron.plan).toMatchObject({ dataParallel: 2, gradAccum: 32 }); // 128 = 2 · 2 · 32
  });

  it("refuses flags the launch already sets, a world size its layout cannot divide, and a missing file (path as typed)", () => {
    expect(main(["--megatron-args", SCRIPT, "--model", "llama-2-7b"]).stderr).toMatch(/--model and --megatron-args both set it/);
    expect(main(["--megatron-args", SCRIPT, "--global-batch", "64"]).stderr).toMatch(/--global-batch and --megatron-args both set it/);
    expect(main(["--megatron-args", SCRIPT, "--gpus", "6"]).stderr).toMatch(/world size \(6\) is not divisible by total_model_size \(4 = tensor 2 × pipeline 2 × context 1\)/);
    expect(main(["--megatron-args", "./My_Run.sh"]).stderr).toMatch(/--megatron-args "\.\/My_Run\.sh": no such file/);
  });

  it("judges the launch with its own switches: without --overlap-grad-reduce (Megatron's default) its reduction is exposed; --grad-reduce-in-bf16 keeps 16-bit gradients", () => {
    const dir = mkdtempSync(join(tmpdir(), "plan-megatron-"));
    const variant = (name: string, extra: string) => {
      const path = join(dir, name);
      writeFileSync(path, readFileSync(SCRIPT, "utf8").replace("    --use-distributed-optimizer\n", `    --use-distributed-optimizer\n${extra}`));
      return JSON.parse(main(["--megatron-args", path, "--gpu", "h100-80gb", "--json", "--top", "1"]).stdout).megatron;
    };
    const plain = variant("plain.sh", ""), overlap = variant("overlap.sh", "    --overlap-grad-reduce --overlap-param-gather\n"), bf16 = variant("bf16.sh", "    --grad-reduce-in-bf16\n");
    expect(plain.time.dataParallelExposedS).toBeGreaterThan(overlap.time.dataParallelExposedS);
    expect(plain.tokensPerS).toBeLessThan(overlap.tokensPerS);
    expect(plain.notes.join("\n")).toMatch(/no --overlap-grad-reduce: Megatron reduces the gradients after the backward pass, exposed/);
    // 2 bytes per parameter of the stage's shard: Llama-2-7B's 6,738,415,616 parameters over t·p = 4 (ceil), from Megatron's fp32 main gradients.
    expect(plain.peakBytes - bf16.peakBytes).toBe(2 * Math.ceil(6_738_415_616 / 4));
    expect(bf16.notes.join("\n")).not.toMatch(/accumulate_allreduce_grads_in_fp32/);
  });

  it("an FP8 launch is judged with FP8 GEMMs (fp8 in its label), and the estimate's note says the estimate alone judges it at 16 bits", () => {
    const dir = mkdtempSync(join(tmpdir(), "plan-fp8-"));
    const path = join(dir, "fp8.sh");
    writeFileSync(path, readFileSync(SCRIPT, "utf8").replace("    --use-distributed-optimizer\n", "    --use-distributed-optimizer\n    --fp8-format hybrid\n"));
    const line = main(["--megatron-args", path, "--gpu", "l40s-48gb", "--gpus", "4", "--top", "1"]).stdout.split("\n")[0];
    expect(line).toMatch(/^Megatron-LM layout of .*: dp\S* tp2 pp2 .*fp8/);
    const plain = main(["--megatron-args", SCRIPT, "--gpu", "l40s-48gb", "--gpus", "4", "--top", "1"]).stdout.split("\n")[0];
    expect(plain).not.toMatch(/fp8/);
  });

  it("a mixture of experts is planned with expert parallelism: Mixtral-8x7B on 64 H100, the best plan spreads the experts", () => {
    const out = JSON.parse(main(["--model", "mixtral-8x7b", "--gpus", "64", "--gpu", "h100-80gb", "--inter-node", "net-400g", "--global-batch", "256", "--seq", "4096", "--json", "--top", "1"]).stdout);
    expect(out.ranked[0].plan.expertParallel).toBeGreaterThan(1);
  });
});
