import { describe, it, expect } from "vitest";
import { trainPipeline, trainOneDevice, oneFOneBSchedule } from "./index.js";

const bitEqual = (a: Float32Array[], b: Float32Array[]) => a.length === b.length && a.every((w, i) => w.length === b[i].length && w.every((x, k) => Object.is(x, b[i][k])));

describe("pipeline training equals one device with gradient accumulation, bit for bit", () => {
  const one = trainOneDevice({ p: 1, m: 8, steps: 2 });
  for (const [name, p, v] of [["gpipe", 2, 1], ["gpipe", 4, 1], ["1f1b", 2, 1], ["1f1b", 4, 1], ["interleaved", 2, 2]] as const) {
    it(`${name}, p = ${p}${v > 1 ? `, v = ${v}` : ""}`, () => {
      const r = trainPipeline(name, { p, m: 8, v, steps: 2 });
      expect(r.losses).toEqual(one.losses);
      expect(bitEqual(r.weights, one.weights)).toBe(true);
      expect(r.losses[1]).toBeLessThan(r.losses[0]);
    });
  }
  it("activations kept: GPipe holds m per stage, 1F1B p − s", () => {
    expect(trainPipeline("gpipe", { p: 4, m: 8, steps: 1 }).peakActivations).toEqual([8, 8, 8, 8]);
    const r = trainPipeline("1f1b", { p: 4, m: 8, steps: 1 });
    expect(r.peakActivations).toEqual([4, 3, 2, 1]);
    expect(r.peakActivationBytes[0]).toBeGreaterThan(r.peakActivationBytes[1]);
  });
  it("a generator function drives training; a broken one is refused", () => {
    const r = trainPipeline((p, m) => oneFOneBSchedule(p, m).events, { p: 2, m: 8, steps: 2 });
    expect(bitEqual(r.weights, one.weights)).toBe(true);
    expect(() => trainPipeline((p, m) => oneFOneBSchedule(p, m).events.filter((e) => e.kind === "F"), { p: 2, m: 8, steps: 1 })).toThrow(/invalid schedule: B of micro-batch 0 on stage 0 is missing/);
    expect(() => trainPipeline("zb-h1", { p: 2, m: 4, steps: 1 })).toThrow(/without W passes/);
    expect(() => trainPipeline("1f1b", { p: 8, m: 4, steps: 1 })).toThrow("p · v = 8 must be <= the model's 7 layers");
  });
});
