import { describe, expect, it } from "vitest";
import { main } from "./cli.js";

// A real Hugging Face config.json from the repository's fixtures (lib/plan/configs), at Llama 3's long-context length.
const long = ["--model", "lib/plan/configs/llama-3.1-70b.json", "--gpu", "h100-80gb", "--gpus", "64", "--inter-node", "net-400g", "--global-batch", "8", "--seq", "131072", "--no-offload"];
const moe = ["--model", "mixtral-8x7b", "--gpu", "h100-80gb", "--gpus", "16", "--inter-node", "net-400g", "--global-batch", "64", "--seq", "4096", "--no-offload", "--fp8", "off"];

describe("npm run plan in five dimensions (--cp, --ep, --fp8)", () => {
  it("--cp searches those context-parallel sizes and prints the cp, ep and their communication columns", () => {
    const r = main([...long, "--cp", "4,8", "--top", "3"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ cp  ep cp comm s   a2a s/);
    const json = JSON.parse(main([...long, "--cp", "4,8", "--json"]).stdout);
    expect(json.ranked.length).toBeGreaterThan(0);
    expect(json.ranked.every((x: { plan: { contextParallel?: number } }) => [4, 8].includes(x.plan.contextParallel ?? 1))).toBe(true);
  });
  it("a mixture of experts is searched with expert parallelism from its config; --ep restricts it; the per-ep summary says what fits", () => {
    const r = main([...moe, "--ep", "1,8", "--cp", "1", "--top", "3"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Mixture of experts: 8 experts, 2 per token/);
    expect(r.stdout).toMatch(/Best plan at each expert-parallel size ep:\n +1: .*\n +8: /);
    const json = JSON.parse(main([...moe, "--ep", "8", "--cp", "1", "--json"]).stdout);
    expect(json.ranked.every((x: { plan: { expertParallel?: number; fp8?: boolean } }) => x.plan.expertParallel === 8 && !x.plan.fp8)).toBe(true);
  });
  it("a dense model's table keeps the 3D columns when no plan shown uses C or ep", () => {
    const r = main(["--model", "llama-2-7b", "--cluster", "8x-a100-80gb", "--global-batch", "64", "--seq", "4096", "--top", "3"]);
    expect(r.stdout).not.toMatch(/a2a s/);
  });
  it("bad input exits 2 naming the flag: sizes, --ep on a dense model, --fp8 on a GPU without FP8", () => {
    expect(main([...long, "--cp", "4,x"]).stderr).toMatch(/--cp must be integers from 1 to 1,048,576 separated by commas, got "4,x"/);
    expect(main([...long, "--ep", "8"]).stderr).toMatch(/--ep 8: the model \(model_type "llama"\) has no experts/);
    const a100 = main(["--model", "llama-2-7b", "--cluster", "8x-a100-80gb", "--global-batch", "64", "--fp8", "on"]);
    expect(a100.code).toBe(2);
    expect(a100.stderr).toMatch(/--fp8 on: the NVIDIA A100 80GB \(SXM\) has no FP8 tensor cores/);
    expect(main([...long, "--fp8", "yes"]).stderr).toMatch(/--fp8 must be one of search, on, off/);
  });
});
