import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { ampSteps, trainAmp } from "./trainAmp.js";
import { caster } from "./castArray.js";
import { SCALE_TRACE_DEMO, scaleTraceConfig } from "./scaleTraceDemo.js";
import { AMP_LIVE_MODEL, charLmSetup } from "./charLmSetup.js";
import type { AmpConfig, AmpModel } from "./ampStep.js";

/** loss = Σ c·w: backward returns S·c rounded to the precision. */
const linear = (c: number): AmpModel<null> => ({ lossAndGrads: (w, _b, o) => ({ loss: w[0]![0]! * c, grads: [Float32Array.of(caster(o.precision)(c * o.lossScale))] }) });

describe("ampSteps", () => {
  it("ampSteps yields the same steps as trainAmp, one at a time", () => {
    const cfg: AmpConfig = { precision: "fp16", lossScaling: "dynamic", scaler: { initScale: 2 ** 20, growthInterval: 2 }, optimizer: { kind: "sgd", lr: 0.5 } };
    const all = trainAmp(linear(0.25), [Float32Array.of(1)], () => null, cfg, 12, 12);
    const one = [...ampSteps(linear(0.25), [Float32Array.of(1)], () => null, cfg, 12)];
    expect(one.map((r) => r.record)).toEqual(all.records);
    expect(one.at(-1)!.state).toEqual(all.state);
  });

  it("ampSteps rejects a step count that is not an integer >= 1 at the call", () => {
    const cfg: AmpConfig = { precision: "fp32", lossScaling: "none", optimizer: { kind: "sgd", lr: 1 } };
    expect(() => ampSteps(linear(1), [Float32Array.of(1)], () => null, cfg, 0)).toThrow(new RangeError("steps must be an integer >= 1, got 0"));
    expect(() => ampSteps(linear(1), [Float32Array.of(1)], () => null, cfg, 1.5)).toThrow(RangeError);
  });

  it("ampSteps: with S = 2^k and gradient 2^-k·c the first step overflows fp16 exactly when c·2^k ≥ 65520 (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 8 }), (k, c) => {
      const cfg: AmpConfig = { precision: "fp16", lossScaling: "dynamic", scaler: { initScale: 2 ** k }, optimizer: { kind: "sgd", lr: 1 } };
      const [first] = [...ampSteps(linear(c), [Float32Array.of(0)], () => null, cfg, 1)];
      expect(first!.record.skipped).toBe(c * 2 ** k >= 65520); // fp16 rounds to inf from 65520 (IEEE 754 binary16)
    }), { seed: 3, numRuns: 60 });
  });
});

describe("scaleTraceConfig", () => {
  it("scaleTraceConfig(SCALE_TRACE_DEMO.settings) is fp16 GradScaler from 2^36 with interval 10 and backoff 0.5", () => {
    const c = scaleTraceConfig(SCALE_TRACE_DEMO.settings);
    expect(c).toEqual({ precision: "fp16", lossScaling: "dynamic", scaler: { initScale: 2 ** 36, growthInterval: 10, backoffFactor: 0.5 }, optimizer: { kind: "adamw", lr: 1e-2 } });
  });

  it("the demo's first steps calibrate: skips while S is too large, each halving the scale", () => {
    const s = charLmSetup({ model: AMP_LIVE_MODEL, batchSize: 8, seqLen: 8, tokensPerStep: SCALE_TRACE_DEMO.tokensPerStep, steps: 30 });
    const recs = trainAmp(s.model, s.init, s.batch, scaleTraceConfig(SCALE_TRACE_DEMO.settings), 30, 0).records;
    expect(recs[0]!.skipped).toBe(true); // 2^36 times gradients of order 2^-20 and larger overflow fp16's 65504
    for (let i = 1; i < recs.length; i++) if (recs[i - 1]!.skipped) expect(recs[i]!.lossScale).toBe(recs[i - 1]!.lossScale / 2);
    expect(recs.some((r) => !r.skipped)).toBe(true);
  });
});
