import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { main } from "./cli.js";
import { loadPresetText } from "./loadPresetText.js";
import { PARALLEL_MEMORY_EXAMPLES, exampleArgv, parallelMemoryRows } from "./parallelMemoryExamples.js";

describe("the pages' tensor/pipeline-parallel memory equals `npm run estimate --json`", () => {
  for (const chapter of ["tensor-parallel", "pipeline-parallel"] as const) {
    it(`${chapter}: every row's bytes equal the CLI's JSON for the printed command`, () => {
      const rows = parallelMemoryRows(chapter, loadPresetText);
      const examples = PARALLEL_MEMORY_EXAMPLES.filter((e) => e.chapter === chapter);
      expect(rows.length).toBe(examples.length);
      rows.forEach((row, i) => {
        const argv = exampleArgv(examples[i]);
        expect(row.command).toBe(`npm run estimate -- ${argv.join(" ")}`);
        const cli = main([...argv, "--json"]);
        expect(cli.code, cli.stderr).toBe(0);
        const out = JSON.parse(cli.stdout);
        expect(out.perGpu).toEqual(row.perGpu);
        expect(out.peak.total).toBe(row.peak);
      });
    });

    it(`${chapter}: the page's data loader prints those rows`, () => {
      const text = execFileSync(process.execPath, ["--import", "tsx", `src/data/${chapter}-memory.json.ts`], { encoding: "utf8" });
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(parallelMemoryRows(chapter, loadPresetText))));
    });
  }

  it("Llama-2-13B at t = 2, p = 4, selective recomputation: activations are Korthikanti's sbh(10 + 24/t) per layer × the first stage's layers in flight", () => {
    const rows = parallelMemoryRows("pipeline-parallel", loadPresetText);
    const perLayer = 4096 * 1 * 5120 * (10 + 24 / 2); // Table 2, tensor parallel + selective recomputation
    const byLabel = Object.fromEntries(rows.map((r) => [r.label, r.perGpu.activations]));
    expect(byLabel["1F1B, m = 1"]).toBe(perLayer * 10); // one micro-batch through L/p = 10 layers
    expect(byLabel["1F1B, m = 4"]).toBe(perLayer * 40); // p micro-batches × L/p layers = L
    expect(byLabel["1F1B, m = 16"]).toBe(perLayer * 40); // capped at p
    expect(byLabel["GPipe, m = 16"]).toBe(perLayer * 160); // m × L/p
    expect(byLabel["interleaved v = 2, m = 16"]).toBe(perLayer * 55); // L(1 + (p − 1)/(p·v)) = 40 · 11/8
  });

  it("Llama-2-13B at t = 8: sequence parallelism divides the 10·sbh replicated part by t (Table 2)", () => {
    const rows = parallelMemoryRows("tensor-parallel", loadPresetText);
    const sbh = 4096 * 5120;
    expect(rows.map((r) => r.perGpu.activations)).toEqual([40 * 34 * sbh, 40 * (10 + 24 / 8) * sbh, 40 * (34 / 8) * sbh]);
  });
});
