import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { main } from "./cli.js";
import { estimateMemory } from "./estimateMemory.js";
import { parseModelConfig } from "./parseModelConfig.js";
import { loadPresetText } from "./loadPresetText.js";

// The done-criterion: the CLI command printed on the page gives the breakdown
// the page's worked example computes. Both are read from src/memory.md, so editing one
// without the other fails here.
const page = readFileSync(new URL("../../src/memory.md", import.meta.url), "utf8");

describe("src/memory.md worked example", () => {
  it("shows the CLI command, whose output equals the page's worked-example setup", () => {
    const command = page.match(/^npm run estimate -- (.+)$/m);
    expect(command, "the page shows an `npm run estimate -- …` line").not.toBeNull();
    const cli = JSON.parse(main([...command![1]!.trim().split(/\s+/), "--json"]).stdout);

    const run = page.match(/const notesRun = \{arch: llama, numGpus: (\d+), precision: "(\w+)", optimizer: "([\w-]+)", microBatch: (\d+), seqLen: (\d+), recompute: "(\w+)"\};/);
    const stage = page.match(/const run2 = estimateMemory\(\{\.\.\.notesRun, zeroStage: (\d)\}\);/);
    expect(run, "the worked example's setup cell").not.toBeNull();
    expect(stage).not.toBeNull();
    const [, gpus, precision, optimizer, microBatch, seqLen, recompute] = run!;
    const pageResult = estimateMemory({
      arch: parseModelConfig(loadPresetText("llama-2-13b")), numGpus: Number(gpus), zeroStage: Number(stage![1]) as 0 | 1 | 2 | 3,
      precision: precision as "fp16", optimizer: optimizer as "adamw", microBatch: Number(microBatch), seqLen: Number(seqLen), recompute: recompute as "full",
    });
    expect(cli.perGpu).toEqual(pageResult.perGpu);
    expect(cli.params).toBe(pageResult.params);
  });

  it("uses the notes' settings: 8 GPUs, fp16, micro-batch 8, seq 2048, gradient checkpointing, ZeRO-2", () => {
    expect(page).toContain("npm run estimate -- --model llama-2-13b --gpus 8 --zero 2 --precision fp16 --micro-batch 8 --seq 2048 --recompute full");
  });
});

describe("src/memory.md correction boxes", () => {
  it("match lib/corrections.ts one to one, in page order (id and title)", async () => {
    const { correctionsOf } = await import("../corrections.js");
    const boxes = [...page.matchAll(/<div class="warning" id="correction-([^"]+)" label="Correction: ([^"]+)">/g)].map((m) => [m[1], m[2]]);
    expect(boxes).toEqual(correctionsOf("memory").map((c) => [c.id, c.title]));
    expect(boxes.length).toBe(4);
  });

  it("no longer calls the notes' benchmarked model 13B, and links its FLOP check", () => {
    expect(page).not.toMatch(/notes' Llama-2-13B run|pre-train Llama-2-13B/);
    expect(page).toContain("## FLOP check of the benchmarked model");
    expect(page).toContain("(#flop-check-of-the-benchmarked-model)");
  });
});
