import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { parseModelConfig } from "../memory/index.js";
import { loadPresetText } from "../memory/loadPresetText.js";
import { clusterOf } from "./clusterPresets.js";
import { clusterPreset } from "./clusterPresets.js";
import { enumeratePlans, layouts } from "./enumeratePlans.js";
import { nearestGlobalBatches } from "./nearestGlobalBatches.js";

const llama = parseModelConfig(loadPresetText("llama-2-7b"));
const three = clusterOf("a100-80gb", 3, 1, "net-200g", 2 ** 41);
const w = (globalBatch: number) => ({ globalBatch, seqLen: 2048, precision: "bf16" as const, optimizer: "adamw" as const });

describe("layouts(arch, cluster)", () => {
  it("Llama-2-7B on 8 GPUs: t in 1, 2, 4, 8 (32 heads), p a divisor of 32 layers with t·p | 8, d = 8/(t·p)", () => {
    expect(layouts(llama, clusterPreset("8x-a100-80gb")).map(({ t, p, d }) => `${t}·${p}·${d}`)).toEqual(["1·1·8", "1·2·4", "1·4·2", "1·8·1", "2·1·4", "2·2·2", "2·4·1", "4·1·2", "4·2·1", "8·1·1"]);
  });
});

describe("nearestGlobalBatches(arch, cluster, B)", () => {
  it("3 GPUs and Llama-2-7B: t = p = 1 (32 heads, 32 layers), so d = 3 and the batch must be a multiple of 3: 63 or 66 for 64", () => {
    expect(nearestGlobalBatches(llama, three, 64)).toEqual({ below: 63, above: 66 });
    expect(nearestGlobalBatches(llama, three, 2)).toEqual({ below: null, above: 3 });
  });
  it("property: both answers have a well-formed plan, and none lies strictly between them and B", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 400 }), fc.constantFrom(3, 6, 8), (B, g) => {
      const c = clusterOf("a100-80gb", g, 1, "net-200g", 2 ** 41);
      const { below, above } = nearestGlobalBatches(llama, c, B);
      const ok = (b: number) => enumeratePlans(llama, c, w(b), { zeroStages: [0], offloads: ["none"], recomputes: ["none"], attentions: ["flash"], sequenceParallel: [false] }).length > 0;
      expect(ok(above)).toBe(true);
      if (below !== null) expect(ok(below)).toBe(true);
      for (let b = (below ?? 0) + 1; b < above; b++) if (b !== B) expect(ok(b)).toBe(false);
    }), { seed: 21, numRuns: 60 });
  });
});
