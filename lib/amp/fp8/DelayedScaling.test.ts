import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { DELAYED_SCALING_DEFAULTS, delayedScaling, fp8Max, fp8TensorFormats } from "./DelayedScaling.js";

describe("DelayedScaling", () => {
  it("DELAYED_SCALING_DEFAULTS are Transformer Engine's published defaults (recipe/__init__.py at d8815c4)", () => {
    // margin: int = 0; fp8_format: Format = Format.HYBRID; amax_history_len: int = 1024; amax_compute_algo = "max"
    expect(DELAYED_SCALING_DEFAULTS).toEqual({ margin: 0, fp8Format: "HYBRID", amaxHistoryLen: 1024, amaxComputeAlgo: "max" });
    expect(Object.isFrozen(DELAYED_SCALING_DEFAULTS)).toBe(true);
  });

  it("fp8Max is the OCP OFP8 Table 1 maximum: 448 for E4M3, 57344 for E5M2 (TE's Format.E4M3 / E5M2 max_fwd)", () => {
    expect(fp8Max("fp8-e4m3")).toBe(448);
    expect(fp8Max("fp8-e5m2")).toBe(57344);
    expect(() => fp8Max("bf16" as never)).toThrow(/format must be fp8-e4m3 or fp8-e5m2, got "bf16"/);
  });

  it("HYBRID casts forward tensors to E4M3 and gradients to E5M2; E4M3 uses E4M3 for both", () => {
    expect(fp8TensorFormats("HYBRID")).toEqual({ forward: "fp8-e4m3", backward: "fp8-e5m2" });
    expect(fp8TensorFormats("E4M3")).toEqual({ forward: "fp8-e4m3", backward: "fp8-e4m3" });
    expect(() => fp8TensorFormats("E5M2" as never)).toThrow(RangeError);
  });

  it("delayedScaling fills in the defaults and keeps what is given (worked example)", () => {
    expect(delayedScaling({ margin: 1 })).toEqual({ ...DELAYED_SCALING_DEFAULTS, margin: 1 });
    expect(delayedScaling()).not.toBe(DELAYED_SCALING_DEFAULTS);
  });

  it("refuses pure E5M2 with TE's reason, and names every bad field", () => {
    expect(() => delayedScaling({ fp8Format: "E5M2" as never })).toThrow(/fp8Format must be "HYBRID" or "E4M3", got "E5M2" \(pure E5M2 training is not supported\)/);
    expect(() => delayedScaling({ amaxHistoryLen: 0 })).toThrow(/amaxHistoryLen must be an integer >= 1, got 0/);
    expect(() => delayedScaling({ amaxComputeAlgo: "mean" as never })).toThrow(/amaxComputeAlgo must be "max" or "most_recent", got "mean"/);
    expect(() => delayedScaling({ margin: 0.5 })).toThrow(/margin must be an integer, got 0.5/);
  });

  it("accepts every integer margin and history length >= 1 (property)", () => {
    fc.assert(fc.property(fc.integer({ min: -20, max: 20 }), fc.integer({ min: 1, max: 4096 }), (margin, amaxHistoryLen) => {
      expect(delayedScaling({ margin, amaxHistoryLen })).toMatchObject({ margin, amaxHistoryLen });
    }), { seed: 1, numRuns: 100 });
  });
});
