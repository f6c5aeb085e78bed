import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "./cli.js";

const PSI_13B = 13_015_864_320;
const doneCriterion = ["--model", "llama-2-13b", "--gpus", "8", "--zero", "2", "--precision", "fp16", "--micro-batch", "8", "--seq", "2048", "--recompute", "full"];

describe("main(argv) — the estimate CLI", () => {
  it("prints the worked example's breakdown as JSON integers", () => {
    const r = main([...doneCriterion, "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.params).toBe(PSI_13B);
    expect(out.perGpu).toEqual({
      parameters: 2 * PSI_13B, gradients: (2 * PSI_13B) / 8, optimizerStates: (12 * PSI_13B) / 8, gradientBuckets: 0,
      activations: 40 * 2 * 2048 * 8 * 5120, total: 2 * PSI_13B + (14 * PSI_13B) / 8 + 40 * 2 * 2048 * 8 * 5120,
    });
  });

  it("prints a GiB table with every component", () => {
    const r = main(doneCriterion);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/parameters\s+24\.24/);
    expect(r.stdout).toMatch(/activations\s+6\.25/);
    expect(r.stdout).toMatch(/total\s+51\.71/);
  });

  it("with --params and no --model estimates model states only and says so", () => {
    const r = main(["--params", "7.5e9", "--gpus", "64", "--zero", "1", "--precision", "fp16", "--json"]);
    const out = JSON.parse(r.stdout);
    expect(out.perGpu.total).toBe(31_406_250_000); // 4Ψ + 12Ψ/64 (ZeRO Figure 1: 31.4 GB)
    expect(out.perGpu.activations).toBe(0);
    expect(out.notes[0]).toMatch(/activations: 0/);
  });

  it("reads a config.json path", () => {
    const dir = mkdtempSync(join(tmpdir(), "estimate-"));
    const file = join(dir, "config.json");
    writeFileSync(file, JSON.stringify({ model_type: "gpt2", vocab_size: 50257, n_embd: 768, n_layer: 12, n_head: 12, n_positions: 1024 }));
    expect(JSON.parse(main(["--model", file, "--json"]).stdout).params).toBe(124_439_808);
    writeFileSync(file, "{ not json");
    const bad = main(["--model", file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not valid JSON/);
    writeFileSync(file, JSON.stringify({ model_type: "llama", vocab_size: 32000, hidden_size: 4096 }));
    expect(main(["--model", file]).stderr).toMatch(/field "intermediate_size" is missing/);
  });

  it("refuses --tp 7 on a config with 4 KV heads, as Megatron-LM does (one rule with lib/tensor-parallel and the planner)", () => {
    const dir = mkdtempSync(join(tmpdir(), "estimate-"));
    const file = join(dir, "config.json");
    // Qwen2-7B's shape (28 query heads, 4 KV heads), written as a Llama-style config.
    writeFileSync(file, JSON.stringify({ model_type: "llama", vocab_size: 152064, hidden_size: 3584, intermediate_size: 18944, num_hidden_layers: 28, num_attention_heads: 28, num_key_value_heads: 4 }));
    const r = main(["--model", file, "--gpus", "7", "--tp", "7"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--tp \(7\) cannot split this model \(Megatron-LM's rule\): numKvHeads \(4\) must be a multiple or a divisor of T \(7\) \(Megatron Core ≥ 0\.16, commit f7dfb99\); valid T for this config: 1, 2, 4/);
    expect(main(["--model", file, "--gpus", "4", "--tp", "4"]).code).toBe(0);
  });

  it.each([
    [["--model", "llama-2-13b", "--frobnicate"], /Unknown option '--frobnicate'\nRun with --help/],
    [["--model", "llama-2-13b", "--zro", "2"], /Unknown option '--zro' \(did you mean "--zero"\?\)/],
    [["--params", "-5"], /--params must be an integer from 1 to 1,000,000,000,000,000, got "-5"/],
    [["--model", "llama-2-13b", "--gpus", "-1"], /--gpus must be an integer from 1 to 1,048,576, got "-1"/],
    [["--params", "1.5"], /--params must be an integer from 1 to .*, got "1.5"/],
    [["--model", "llama-2-13b", "--gpus", "0"], /--gpus must be an integer from 1 to .*, got "0"/],
    [["--model", "llama-2-7b", "--seq", "1e12"], /--seq must be an integer from 1 to 16,777,216, got "1e12"/],
    [["--model", "llama-2-7b", "--micro-batch", "1e15"], /--micro-batch must be an integer from 1 to 65,536/],
    [["--model", "llama-2-70b", "--seq", "16777216", "--micro-batch", "65536"], /exceeds 2\^53 bytes/],
    [["--model", "llama-2-7b", "--gpus", "8", "--gpus", "4"], /--gpus is given twice/],
    [["--model", "gpt2", "--seq", "4096"], /--seq \(4096\) exceeds the model's n_positions \(1024\)/],
    [["--model", "lib/memory"], /is a folder/],
    [["--model", "llama-2-13b", "--gpus", "2.5"], /--gpus/],
    [["--model", "llama-2-13b", "--micro-batch", "abc"], /--micro-batch/],
    [["--model", "llama-2-13b", "--zero", "4"], /--zero must be 0, 1, 2 or 3/],
    [["--model", "llama-2-13b", "--precision", "fp8"], /--precision must be one of fp32, fp16, bf16/],
    [["--model", "llama-2-13b", "--gpus", "3", "--tp", "3"], /--tp \(3\) cannot split this model \(Megatron-LM's rule\): numHeads \(40\) must be divisible by T \(3\)/],
    [["--model", "llama-2-13b", "--gpus", "6", "--tp", "4"], /--gpus \(6\) must be a multiple/],
    [["--model", "llama-2-13b", "--offload", "optimizer"], /--offload "optimizer" needs --zero >= 1/],
    [["--model", "no-such-model"], /neither a preset/],
    [[], /give --model/],
    [["--model", "llama-2-13b", "--zero", "2", "--amp-design", "torch"], /--amp-design "torch" \(PyTorch AMP\) has no ZeRO partitioning: use --zero 0, got 2/],
    [["--model", "llama-2-13b", "--amp-design", "apex"], /--amp-design must be one of deepspeed, torch, got "apex"/],
    [["--model", "llama-2-13b", "--attention", "sdpa"], /--attention must be one of eager, flash, got "sdpa"/],
    [["--model", "llama-2-13b", "--gpu-mem", "0"], /--gpu-mem must be a number of GiB above 0/],
    [["--model", "llama-2-13b", "--gpu-mem", "-3"], /--gpu-mem must be a number of GiB above 0 and at most 1,048,576, got "-3"/],
    [["--model", "lama-2-13b"], /neither a preset .* nor an existing file \(did you mean "llama-2-13b"\?\)/],
    [["--model", "llama-2-13b", "--gpus", "8", "--pp", "4", "--micro-batches", "6", "--schedule", "interleaved"], /--micro-batches \(6\) must be a multiple of --pp \(4\) for the interleaved schedule/],
    [["--model", "llama-2-13b", "--gpus", "8", "--pp", "4", "--micro-batches", "0"], /--micro-batches must be an integer from 1 to 1,048,576, got "0"/],
    [["--model", "llama-2-13b", "--gpus", "8", "--pp", "8", "--schedule", "interleaved", "--virtual-stages", "2"], /--pp × --virtual-stages \(16\) must divide num_hidden_layers \(40\)/],
    [["--model", "llama-2-13b", "--virtual-stages", "2"], /--virtual-stages \(2\) needs schedule "interleaved"/],
    [["--model", "llama-2-13b", "--schedule", "zb-h2"], /--schedule must be one of 1f1b, gpipe, interleaved, got "zb-h2"/],
  ])("exits 2 naming the field on bad input %j", (argv, message) => {
    const r = main(argv as string[]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/NaN/);
  });

  it("marks the transient line of the phase that is not added, so the lines marked + sum to peak − steady", () => {
    const out = main(["--model", "llama-2-70b", "--gpus", "64", "--zero", "3", "--micro-batch", "1", "--seq", "4096", "--recompute", "full"]).stdout;
    expect(out).toMatch(/^ {2}logitsFp32 .*not added: the other phase is larger/m);
    const added = [...out.matchAll(/^\+ \w+\s+([\d.]+)/gm)].reduce((acc, m) => acc + Number(m[1]), 0);
    const steady = Number(/^steady total\s+([\d.]+)/m.exec(out)![1]), peak = Number(/^peak total\s+([\d.]+)/m.exec(out)![1]);
    expect(Math.abs(steady + added - peak)).toBeLessThan(0.03); // two-decimal rounding of each line
  });

  it("prints the peak beside the steady state, each transient line with its source, and judges --gpu-mem by the peak", () => {
    const r = main([...doneCriterion, "--gpu-mem", "80"]);
    expect(r.stdout).toMatch(/steady total\s+51\.71/);
    expect(r.stdout).toMatch(/recomputedLayer\s+8\.91/);
    expect(r.stdout).toMatch(/attentionScoresFp32\s+5\.00/);
    expect(r.stdout).toMatch(/logitsFp32\s+3\.91/);
    expect(r.stdout).toMatch(/source: Korthikanti et al\. 2022/);
    expect(r.stdout).toMatch(/peak total\s+65\.61/);
    expect(r.stdout).toMatch(/Fits in 80 GiB per GPU: yes/);
    // a steady state of 51.71 GiB "fits" 64 GiB, the peak does not
    expect(main([...doneCriterion, "--gpu-mem", "64"]).stdout).toMatch(/Fits in 64 GiB per GPU: NO \(peak 65\.61 GiB; steady state 51\.71 GiB\)/);
    expect(main([...doneCriterion, "--gpu-mem", "79.6"]).stdout).toMatch(/Fits in 79\.6 GiB per GPU/);
    const json = JSON.parse(main([...doneCriterion, "--gpu-mem", "64", "--json"]).stdout);
    expect(json.fits).toBe(false);
    expect(json.peak.total).toBe(70_452_099_840);
    expect(json.peak.lines.map((l: { name: string }) => l.name)).toEqual(["recomputedLayer", "attentionScoresFp32", "logitsFp32"]);
    expect(json.ampDesign).toBe("deepspeed");
  });

  it("--amp-design torch is PyTorch AMP with DDP: 4 + 4 + 8 bytes and the bucket copy, unless --bucket-view", () => {
    const torch = ["--model", "llama-2-13b", "--gpus", "8", "--zero", "0", "--precision", "fp16", "--amp-design", "torch", "--json"];
    const out = JSON.parse(main(torch).stdout).perGpu;
    expect([out.parameters, out.gradients, out.optimizerStates, out.gradientBuckets]).toEqual([4 * PSI_13B, 4 * PSI_13B, 8 * PSI_13B, 4 * PSI_13B]);
    expect(JSON.parse(main([...torch, "--bucket-view"]).stdout).perGpu.gradientBuckets).toBe(0);
  });

  it("full offload shows the GPU's gathered layer in the peak, not 0.00 GiB", () => {
    const r = main(["--model", "llama-2-13b", "--gpus", "8", "--zero", "3", "--offload", "optimizer+params", "--precision", "fp16"]);
    expect(r.stdout).toMatch(/gatheredLayer\s+0\.61/); // 4 bytes × 163,840,000 (the embedding)
  });

  it("says what the model is, and keeps the convention for --verbose", () => {
    expect(main(["--params", "7.5e9"]).stdout).toMatch(/^Model: 7\.5e9 parameters \(7,500,000,000;/);
    expect(main(["--params", "7.5e9"]).stdout).not.toMatch(/Convention:/);
    expect(main(["--params", "7.5e9", "--verbose"]).stdout).toMatch(/Convention: Bytes per GPU/);
  });

  it("defaults --seq to GPT-2's n_positions (1024), the longest sequence its position table holds", () => {
    expect(main(["--model", "gpt2"]).stdout).toMatch(/seq 1024/);
  });

  it("--help lists every option with its default", () => {
    const r = main(["--help"]);
    expect(r.code).toBe(0);
    for (const flag of ["--model", "--params", "--gpus", "--zero", "--offload", "--precision", "--optimizer", "--micro-batch", "--seq", "--recompute", "--tp", "--pp", "--attention", "--amp-design", "--bucket-view", "--gpu-mem", "--verbose", "--json"]) {
      expect(r.stdout).toContain(flag);
    }
  });

  it("runs as a child process with exit status 0 and 2", () => {
    // node with tsx's loader, as `npx tsx` runs it, without npx's own start-up (about 1.5 s a call here)
    const tsx = [process.execPath, ["--import", "tsx"]] as const;
    const out = execFileSync(tsx[0], [...tsx[1], "lib/memory/cli.ts", ...doneCriterion, "--json"], { encoding: "utf8" });
    expect(JSON.parse(out).perGpu.parameters).toBe(2 * PSI_13B);
    let status = 0;
    try {
      execFileSync(tsx[0], [...tsx[1], "lib/memory/cli.ts", "--gpus", "-1", "--params", "5"], { encoding: "utf8", stdio: "pipe" });
    } catch (e) {
      status = (e as { status: number }).status;
    }
    expect(status).toBe(2);
  });

  it("--pp with --micro-batches: the first stage's activations follow the schedule (Korthikanti 2022 §4.2.3), in JSON and in the table", () => {
    const base = ["--model", "llama-2-13b", "--gpus", "8", "--tp", "2", "--pp", "4", "--seq", "2048", "--recompute", "full", "--json"];
    const act = (extra: string[]) => JSON.parse(main([...base, ...extra]).stdout).perGpu.activations;
    const layer = 2 * 2048 * 5120; // full recomputation: 2sbh per layer, not split by t without --sp
    expect(act([])).toBe(40 * layer); // default m = p: L layers
    expect(act(["--micro-batches", "2"])).toBe(2 * 10 * layer);
    expect(act(["--micro-batches", "64"])).toBe(40 * layer);
    expect(act(["--micro-batches", "8", "--schedule", "gpipe"])).toBe(8 * 10 * layer);
    expect(act(["--micro-batches", "8", "--schedule", "interleaved"])).toBe(55 * layer); // 11 chunks of 5 layers
    const text = main(base.slice(0, -1).concat(["--micro-batches", "8"])).stdout;
    expect(text).toMatch(/micro-batch 1 × 8 micro-batches \(1f1b\)/);
    expect(text).toMatch(/4 chunks of 10 layers in flight \(1f1b, 8 micro-batches, p = 4\) = 40 layers' worth/);
  });

  it("without --gpus, one tensor × pipeline group: --tp 2 --pp 4 runs on 8 GPUs with no data parallelism", () => {
    const out = JSON.parse(main(["--model", "llama-2-7b", "--tp", "2", "--pp", "4", "--json"]).stdout);
    expect(out.dataParallel).toBe(1);
    expect(out.perGpu.parameters).toBe(2 * Math.ceil(6_738_415_616 / 8));
    expect(main(["--model", "llama-2-7b", "--tp", "2", "--pp", "4"]).stdout).toMatch(/Setup: 8 GPUs \(data 1 × tensor 2 × pipeline 4\)/);
  });
});

