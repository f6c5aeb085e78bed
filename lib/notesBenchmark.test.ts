import { describe, it, expect } from "vitest";
import { NOTES_RUNS, impliedDdpBaseline, ddpBaseline } from "./notesBenchmark.js";

describe("notesBenchmark", () => {
  it("impliedDdpBaseline(run) divides by 1 + gain/100 (worked example: ZeRO-2, 31.297 / 1.154)", () => {
    const zero2 = NOTES_RUNS.find((r) => r.run === "DeepSpeed ZeRO-2")!;
    expect(impliedDdpBaseline(zero2)).toBeCloseTo(27.1205, 3);
  });

  it("the four stated gains imply baselines that agree within 0.1 samples/s", () => {
    const implied = NOTES_RUNS.filter((r) => r.gainPercent !== null).map(impliedDdpBaseline);
    expect(implied).toHaveLength(4);
    expect(Math.max(...implied) - Math.min(...implied)).toBeLessThan(0.1);
    expect(ddpBaseline()).toBeGreaterThanOrEqual(Math.min(...implied));
    expect(ddpBaseline()).toBeLessThanOrEqual(Math.max(...implied));
  });

  it("impliedDdpBaseline(run) throws RangeError for a run that states no gain", () => {
    expect(() => impliedDdpBaseline(NOTES_RUNS[1])).toThrow(RangeError);
    expect(() => impliedDdpBaseline(NOTES_RUNS[1])).toThrow(/states no gain over DDP/);
  });

  it("runtimes agree with samples/s: every hf-trainer run saw the same number of samples (±1%)", () => {
    const samples = NOTES_RUNS.filter((r) => r.script === "hf-trainer").map((r) => r.samplesPerSecond * r.runtimeSeconds);
    for (const s of samples) expect(Math.abs(s / samples[0] - 1)).toBeLessThan(0.01);
  });
});
