import { describe, expect, it } from "vitest";
import { parameterCount } from "../memory/index.js";
import { PUBLISHED_RUNS, predictPublishedRun } from "./index.js";

describe("PUBLISHED_RUNS and predictPublishedRun", () => {
  const results = PUBLISHED_RUNS.map((r) => ({ r, p: predictPublishedRun(r) }));
  it("the models are the published sizes: BLOOM 176B, MPT 70B (the course's count, 64.9B), Llama 3 405B", () => {
    const B = (id: string) => parameterCount(PUBLISHED_RUNS.find((r) => r.id === id)!.arch).total / 1e9;
    expect(B("bloom-176b")).toBeCloseTo(176.2, 1);
    expect(B("mpt-70b")).toBeCloseTo(64.86, 1);
    expect(B("llama3-405b")).toBeCloseTo(405.9, 0);
    // The layouts multiply to the published GPU counts.
    const gpus = (id: string) => { const p = PUBLISHED_RUNS.find((r) => r.id === id)!.plan; return p.dataParallel * p.tensorParallel * p.pipelineParallel; };
    expect([gpus("bloom-176b"), gpus("mpt-70b"), gpus("llama3-405b")]).toEqual([384, 64, 8192]);
  });
  it("prints each run: predicted against published, in the published metric", () => {
    console.log(results.map(({ r, p }) => `${r.name.padEnd(40)} predicted ${p.predicted.toPrecision(4).padStart(8)} published ${String(p.published).padStart(6)} ratio ${p.ratio.toFixed(2)} MFU ${(100 * p.mfu).toFixed(1)} % fits ${p.fits}`).join("\n"));
  });
  it("the planner is optimistic on every run, and by less than 1.4× (it leaves out launch, framework and clock effects; the page says so)", () => {
    for (const { r, p } of results) {
      expect(p.ratio, r.id).toBeGreaterThan(1);
      expect(p.ratio, r.id).toBeLessThan(1.4);
    }
  });
  it("MPT-70B's check exercises the communication model: FSDP's 3Ψ per micro-batch is hidden only in part, unlike the old 60 % constant", () => {
    const r = PUBLISHED_RUNS.find((x) => x.id === "mpt-70b")!;
    const p = predictPublishedRun(r);
    expect(p.fits).toBe(true);
    expect(p.totalS).toBeGreaterThan(0);
  });
});
