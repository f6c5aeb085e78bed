import { describe, expect, it } from "vitest";
import { main } from "./cli.js";

const base = ["--model", "llama-2-7b", "--cluster", "8x-a100-80gb", "--global-batch", "64", "--seq", "4096"];

describe("npm run plan (main)", () => {
  it("ranks the plans as JSON, fastest first, each with its memory and time", () => {
    const r = main([...base, "--json", "--top", "3"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.ranked).toHaveLength(3);
    expect(out.ranked[0].tokensPerS).toBeGreaterThanOrEqual(out.ranked[1].tokensPerS);
    expect(out.ranked.every((x: { fits: boolean; peakBytes: number }) => x.fits && x.peakBytes <= 0.9 * 80 * 2 ** 30)).toBe(true); // 10 % headroom by default
    const roomy = JSON.parse(main([...base, "--json", "--headroom", "0"]).stdout);
    expect(roomy.ranked[0].peakBytes).toBeLessThanOrEqual(80 * 2 ** 30);
    expect(out.rejected.every((x: { reason: string }) => x.reason.length > 0)).toBe(true);
  });
  it("prints a table, and the cost of a million tokens with --price", () => {
    const r = main([...base, "--price", "2"]);
    expect(r.stdout).toMatch(/Searched [\d,]+ plans: [\d,]+ fit/);
    expect(r.stdout).toMatch(/\$\/Mtok/);
    expect(r.stdout).toMatch(/Why the others were rejected/);
    // The columns say what they hold: b<micro-batch>×<accumulation>, and communication that nothing hides.
    expect(r.stdout).toMatch(/plan \(dp tp pp zero b<micro-batch>×<accumulation>\)/);
    expect(r.stdout).toMatch(/exposed comm s/);
    expect(r.stdout).toMatch(/MFU counts PaLM's model FLOPs/);
    // Ties among the printed plans are named and explained; here there are none.
    const ranked = JSON.parse(main([...base, "--json"]).stdout).ranked as { tokensPerS: number }[];
    const tied = ranked.slice(1).some((x, i) => x.tokensPerS === ranked[i].tokensPerS);
    expect(/Ties: /.test(r.stdout)).toBe(tied);
  });
  it("bad input names the flag and its range, a negative number and a flag given twice included", () => {
    expect(main(["--model", "llama-2-7b", "--global-batch", "64", "--gpus", "-1"]).stderr).toMatch(/^plan: --gpus must be an integer from 1 to 1,048,576, got "-1"/);
    expect(main([...base, "--headroom", "-0.1"]).stderr).toMatch(/^plan: --headroom must be a number in \[0, 0\.99\], got "-0\.1"/);
    expect(main([...base, "--top", "1", "--top", "2"]).stderr).toMatch(/^plan: --top is given twice; give each option once/);
    expect(main(["--model", "gpt2", "--global-batch", "8", "--seq", "2048"]).stderr).toMatch(/^plan: --seq \(2048\) exceeds the model's n_positions \(1024\)/);
  });
  it("warns, as the estimate does, when the sequence is longer than a rotary model's context", () => {
    const long = ["--model", "llama-2-7b", "--global-batch", "8", "--seq", "8192", "--top", "1"];
    expect(main(long).stdout).toMatch(/^Warning: --seq 8,192 tokens are beyond the model's context of 4,096 tokens/);
    expect(JSON.parse(main([...long, "--json"]).stdout).warnings).toEqual([expect.stringMatching(/beyond the model's context of 4,096 tokens/)]);
    expect(JSON.parse(main([...base, "--json", "--top", "1"]).stdout).warnings).toEqual([]);
  });
  it("when nothing fits, says why and which single change would fit", () => {
    const r = main(["--model", "llama-2-70b", "--gpus", "8", "--global-batch", "64", "--seq", "4096", "--no-offload"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Nothing fits\. The closest plan: .*needs [\d.]+ GiB > 72\.00 GiB usable per GPU \(80\.00 GiB less 10 % headroom\)/);
    expect(r.stdout).toMatch(/One change away:\n {2}offload the optimizer.*: fits/);
    expect(r.stdout).toMatch(/× needs more than 72\.00 GiB per GPU; largest part: /); // counted by cause, without "…"
    const one = main(["--model", "llama-2-70b", "--gpus", "1", "--gpus-per-node", "1", "--global-batch", "8", "--no-offload"]);
    expect(one.stdout).not.toMatch(/ZeRO stage 0 → 1:/); // ZeRO alone on one rank is no advice
  });
  it("says when no plan is well formed, and refuses a sequence longer than a learned position table", () => {
    // s = 256 leaves no context-parallel split (each of a rank's two chunks would be under 128 tokens), so a sequence cannot be shared.
    const r = main(["--model", "llama-2-70b", "--global-batch", "1024", "--seq", "256", "--gpus", "1048576"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/No well-formed plan: with 1,048,576 GPUs/);
    expect(main(["--model", "llama-2-7b", "--global-batch", "64", "--gpus", "3", "--gpus-per-node", "3"]).stdout).toMatch(/The nearest global batches that have one: 63 or 66 \(--global-batch\); or use fewer GPUs\./);
    const g = main(["--model", "gpt2", "--global-batch", "64", "--seq", "2048"]);
    expect(g.code).toBe(2);
    expect(g.stderr).toMatch(/--seq \(2048\) exceeds the model's n_positions \(1024\)/);
  });
  it("exports the best plan that the format can express", () => {
    const ds = main([...base, "--export", "deepspeed"]);
    expect(ds.code).toBe(0);
    const config = JSON.parse(ds.stdout);
    expect(config.train_batch_size).toBe(config.train_micro_batch_size_per_gpu * config.gradient_accumulation_steps * 8);
    expect(config.train_batch_size).toBe(64);
    const meg = main([...base, "--export", "megatron"]);
    expect(meg.stdout).toMatch(/--tensor-model-parallel-size \d+/);
    expect(meg.stderr).toMatch(/plan: not in this file: the data and tokenizer arguments .* the model's 32,000/); // Llama 2's vocabulary
    expect(main([...base, "--export", "torchrun"]).stdout).toMatch(/^torchrun/);
    expect(ds.stderr).toMatch(/^plan: dp\d+ .*\nplan: not in this file: .*attn_implementation="flash_attention_2"/);
  });
  it("bad input exits 2 naming the flag, with a suggestion", () => {
    const cases: [string[], RegExp][] = [
      [["--model", "llama-2-7", "--global-batch", "8"], /--model "llama-2-7" is neither a preset .* \(did you mean "llama-2-7b"\?\)/],
      [["--model", "llama-2-7b"], /--global-batch is required/],
      [[...base, "--headroom", "1.5"], /--headroom must be a number in \[0, 0.99\], got "1.5"/],
      [["--model", "gpt2", "--gpu", "v100", "--global-batch", "8"], /--gpu must be one of a100-40gb, a100-80gb, h100-80gb, h800-80gb, h200-141gb, b200-180gb, mi300x-192gb, l40s-48gb, got "v100"/],
      [[...base, "--export", "yaml"], /--export must be one of deepspeed, fsdp, megatron, torchrun, got "yaml"/],
      [["--model", "gpt2", "--cluster", "8x-a100-80gb", "--gpus", "16", "--global-batch", "8"], /--cluster and --gpus contradict each other/],
      [["--model", "gpt2", "--gpus", "12", "--global-batch", "8"], /--gpus \(12\) must be a multiple of --gpus-per-node \(8\)/],
      [["--model", "gpt2", "--global-bach", "8"], /Unknown option '--global-bach'.*did you mean "--global-batch"\?/],
    ];
    for (const [argv, re] of cases) {
      const r = main(argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr).toMatch(re);
    }
  });
});
