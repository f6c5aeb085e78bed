import { describe, expect, it } from "vitest";
import { parseModelConfig } from "../memory/index.js";
import { loadPresetText } from "../memory/loadPresetText.js";
import { clusterPreset } from "./clusterPresets.js";
import { enumeratePlans, THREE_D_SPACE } from "./enumeratePlans.js";
import { evaluatePlan, planMemory } from "./evaluatePlan.js";
import { choosePlan, planJudge } from "./choosePlan.js";
import { searchPlans } from "./searchPlans.js";
import type { Workload } from "./planLabel.js";

const arch = parseModelConfig(loadPresetText("llama-2-7b"));
const cluster = clusterPreset("8x-a100-80gb");
const w: Workload = { globalBatch: 64, seqLen: 4096, precision: "bf16", optimizer: "adamw" };

describe("planMemory", () => {
  it("is evaluatePlan's memory verdict, without the timing", () => {
    for (const p of enumeratePlans(arch, cluster, w, THREE_D_SPACE).filter((_, i) => i % 97 === 0)) {
      const e = evaluatePlan(arch, p, cluster, w), m = planMemory(arch, p, cluster, w);
      expect({ fits: m.fits, reason: m.reason, overBytes: m.overBytes, peak: m.memory.peak.total }).toEqual({ fits: e.fits, reason: e.reason, overBytes: e.overBytes, peak: e.memory.peak.total });
    }
  });
});

describe("planJudge and choosePlan", () => {
  it("the judge times at most its budget, and says so", () => {
    const j = planJudge(arch, cluster, w, 1);
    const [a, b] = enumeratePlans(arch, cluster, w, THREE_D_SPACE);
    expect(j.time(a).tokensPerS).toBeGreaterThan(0);
    expect(() => j.time(b)).toThrow(/^the timing budget \(1\) is spent: /);
    expect(j.timed).toHaveLength(1);
    expect(() => planJudge(arch, cluster, w, -1)).toThrow(new RangeError("budget must be an integer >= 0, got -1"));
  });

  it("worked example: Llama-2-7B on 8 × A100 with 16 timings finds the planner's best of 3,920 plans", () => {
    const j = planJudge(arch, cluster, w, 16);
    const p = choosePlan(arch, cluster, w, j)!;
    expect(evaluatePlan(arch, p, cluster, w).label).toBe(searchPlans(arch, cluster, w, THREE_D_SPACE).ranked[0].label);
    expect(j.timed.length).toBeLessThanOrEqual(16);
  });

  it("with a budget of 0 it times nothing and still returns a plan that fits; undefined when nothing fits", () => {
    const j = planJudge(arch, cluster, w, 0);
    const p = choosePlan(arch, cluster, w, j)!;
    expect(j.timed).toEqual([]);
    expect(planMemory(arch, p, cluster, w).fits).toBe(true);
    const big = parseModelConfig(loadPresetText("llama-2-70b"));
    const small = { ...clusterPreset("8x-l40s-48gb"), cpuMemoryBytesPerNode: 64 * 2 ** 30 };
    expect(choosePlan(big, small, w, planJudge(big, small, w, 16))).toBeUndefined();
  });
});
