import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { offloadTimeline, checkOffloadTimeline, timelineProblemOf, type TimelineProblem, type TimelineTask } from "./offloadTimeline.js";
import { simulateOffloadStep } from "./simulateOffloadStep.js";

const problem = fc.record({
  layers: fc.array(fc.record({ params: fc.integer({ min: 0, max: 4e9 }), forwardS: fc.double({ min: 0, max: 3, noNaN: true }) }), { minLength: 1, maxLength: 6 }),
  steps: fc.integer({ min: 1, max: 5 }),
  dpu: fc.boolean(),
  h2d: fc.record({ alphaS: fc.double({ min: 0, max: 0.1, noNaN: true }), bytesPerS: fc.double({ min: 1e8, max: 6e10, noNaN: true }) }),
  d2h: fc.record({ alphaS: fc.double({ min: 0, max: 0.1, noNaN: true }), bytesPerS: fc.double({ min: 1e8, max: 6e10, noNaN: true }) }),
  cpuAdamElementsPerS: fc.double({ min: 1e8, max: 1e10, noNaN: true }),
});
const one = (p: TimelineProblem, k: string, s: number, l: number) => offloadTimeline(p).find((x) => x.kind === k && x.step === s && x.layer === l)!;

describe("offloadTimeline(problem)", () => {
  it("worked example: one layer of 10⁹ parameters, one step", () => {
    const p = { layers: [{ params: 1e9, forwardS: 1 }], steps: 1, h2d: { bytesPerS: 2e9 }, d2h: { bytesPerS: 2e9 }, cpuAdamElementsPerS: 1e9 };
    expect(offloadTimeline(p).map((x) => [x.kind, x.t, x.end])).toEqual([
      ["forward", 0, 1], ["backward", 1, 3], ["grad-d2h", 3, 4], ["cpu-adam", 4, 5], ["param-h2d", 5, 6],
    ]);
  });

  it("equals simulateOffloadStep's ZeRO-Offload run on alike layers, with and without DPU", () => {
    for (const cfg of [{ numLayers: 4, hiddenSize: 1024 }, { numLayers: 7, hiddenSize: 777, dpu: true, numSteps: 6 }, { numLayers: 3, hiddenSize: 4096, seqLen: 2048, microBatch: 2, dpu: true, hardware: { cpuAdamElementsPerS: 1e8 } }]) {
      const sim = simulateOffloadStep(cfg).events.map((e) => ({ kind: e.kind, step: e.step, layer: e.layer, t: e.t, end: e.end }));
      expect(offloadTimeline(timelineProblemOf(cfg))).toEqual(sim);
    }
  });

  it("is valid by checkOffloadTimeline on random layers of unlike sizes", () => {
    fc.assert(fc.property(problem, (p) => { expect(checkOffloadTimeline(p, offloadTimeline(p))).toEqual([]); }), { numRuns: 200 });
  });

  it("with DPU the GPU of step 1 does not wait for the CPU; step 2 waits for step 0's copies only", () => {
    const p: TimelineProblem = { layers: [{ params: 1e9, forwardS: 0.1 }, { params: 1e9, forwardS: 0.1 }], steps: 3, dpu: true, h2d: { bytesPerS: 1e9 }, d2h: { bytesPerS: 1e9 }, cpuAdamElementsPerS: 1e8 };
    expect(one(p, "forward", 1, 0).t).toBeCloseTo(one(p, "backward", 0, 0).end, 12);
    expect(one(p, "forward", 2, 1).t).toBeCloseTo(Math.max(one(p, "param-h2d", 0, 1).end, one(p, "forward", 2, 0).end), 12);
    const sync = offloadTimeline({ ...p, dpu: false });
    const last = (ts: TimelineTask[]) => Math.max(...ts.map((x) => x.end));
    expect(last(offloadTimeline(p))).toBeLessThan(last(sync));
  });

  it("a layer without parameters still pays each transfer's latency", () => {
    const p: TimelineProblem = { layers: [{ params: 0, forwardS: 0 }], steps: 1, h2d: { alphaS: 0.5, bytesPerS: 1 }, d2h: { alphaS: 0.25, bytesPerS: 1 }, cpuAdamElementsPerS: 1 };
    expect(offloadTimeline(p).map((x) => x.end)).toEqual([0, 0, 0.25, 0.25, 0.75]);
  });

  it("200,000 layers: no argument spread, linear time", () => {
    const L = 200_000;
    const p: TimelineProblem = { layers: Array.from({ length: L }, (_, i) => ({ params: 1000 + (i % 7), forwardS: 1e-6 })), steps: 2, dpu: true, h2d: { bytesPerS: 1e9 }, d2h: { bytesPerS: 1e9 }, cpuAdamElementsPerS: 1e9 };
    const ts = offloadTimeline(p);
    expect(ts).toHaveLength(10 * L);
    expect(checkOffloadTimeline(p, ts)).toEqual([]);
  });

  it("names the field of bad input", () => {
    const ok: TimelineProblem = { layers: [{ params: 1, forwardS: 1 }], steps: 1, h2d: { bytesPerS: 1 }, d2h: { bytesPerS: 1 }, cpuAdamElementsPerS: 1 };
    expect(() => offloadTimeline({ ...ok, layers: [] })).toThrow(new RangeError("layers must have at least one layer, got 0"));
    expect(() => offloadTimeline({ ...ok, layers: [{ params: 1, forwardS: 1 }, { params: -1, forwardS: 1 }] })).toThrow(new RangeError("layers[1].params must be an integer >= 0, got -1"));
    expect(() => offloadTimeline({ ...ok, steps: 0 })).toThrow(new RangeError("steps must be an integer >= 1, got 0"));
    expect(() => offloadTimeline({ ...ok, h2d: { bytesPerS: 0 } })).toThrow(new RangeError("h2d.bytesPerS must be a finite number > 0, got 0"));
    expect(() => timelineProblemOf({ numLayers: 1, hiddenSize: 8, stage: 3, offloadParam: "cpu" })).toThrow(RangeError);
  });
});

describe("checkOffloadTimeline(problem, tasks)", () => {
  const p: TimelineProblem = { layers: [{ params: 1e9, forwardS: 1 }, { params: 5e8, forwardS: 0.5 }], steps: 2, h2d: { bytesPerS: 2e9 }, d2h: { bytesPerS: 2e9 }, cpuAdamElementsPerS: 1e9 };
  it("names a missing task, a wrong duration, an overlap and a broken dependency", () => {
    const ts = offloadTimeline(p);
    expect(checkOffloadTimeline(p, ts.slice(1))[0]).toBe("forward of layer 0 in step 0 is missing");
    expect(checkOffloadTimeline(p, ts.map((x, i) => (i === 0 ? { ...x, end: x.end + 1 } : x)))[0]).toMatch(/^forward of layer 0 in step 0 lasts 2 s, it takes 1 s$/);
    // Adam on layer 0 as soon as its own gradient arrives (no barrier).
    const early = ts.map((x) => (x.kind === "cpu-adam" && x.step === 0 && x.layer === 0 ? { ...x, t: x.t - 0.25, end: x.end - 0.25 } : x));
    expect(checkOffloadTimeline(p, early).join("\n")).toMatch(/cpu-adam of layer 0 in step 0 starts at .* before grad-d2h of layer 0 in step 0 ends .*: Adam waits for every gradient of its step/);
    const shifted = ts.map((x) => (x.kind === "forward" && x.step === 1 && x.layer === 1 ? { ...x, t: x.t - 0.1, end: x.end - 0.1 } : x));
    expect(checkOffloadTimeline(p, shifted).join("\n")).toMatch(/the gpu lane runs two tasks at once/);
  });
});
