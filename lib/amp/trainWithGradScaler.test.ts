import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { trainWithGradScaler, type GradScalerLike } from "./trainWithGradScaler.js";
import { GradScaler } from "./GradScaler.js";
import { trainAmp } from "./trainAmp.js";
import { caster } from "./castArray.js";
import { AMP_LIVE_MODEL, charLmSetup } from "./charLmSetup.js";
import type { AmpModel } from "./ampStep.js";

const adamw = { kind: "adamw", lr: 1e-2 } as const;
/** loss = c·w: backward returns S·c rounded to the precision. */
const linear = (c: number): AmpModel<null> => ({ lossAndGrads: (w, _b, o) => ({ loss: w[0]![0]! * c, grads: [Float32Array.of(caster(o.precision)(c * o.lossScale))] }) });

describe("trainWithGradScaler", () => {
  it("trainWithGradScaler with the course's GradScaler reproduces ampStep's run step for step (two implementations of PyTorch's rules)", () => {
    const s = charLmSetup({ model: AMP_LIVE_MODEL, batchSize: 8, seqLen: 8, tokensPerStep: 2 ** 22, steps: 40 });
    const mine = trainWithGradScaler(s.model, s.init, s.batch, new GradScaler({ initScale: 2 ** 36, growthInterval: 5 }), 40, { optimizer: adamw });
    const ref = trainAmp(s.model, s.init, s.batch, { precision: "fp16", lossScaling: "dynamic", scaler: { initScale: 2 ** 36, growthInterval: 5 }, optimizer: adamw }, 40, 0);
    expect(mine.records.map((r) => [r.lossScale, r.skipped])).toEqual(ref.records.map((r) => [r.lossScale, r.skipped]));
    expect(mine.records.map((r) => r.loss)).toEqual(ref.records.map((r) => r.loss));
    expect(mine.weights).toEqual(ref.state.master);
    expect(mine.records.slice(0, 3).map((r) => r.skipped)).toEqual([true, true, false]);
  });

  it("trainWithGradScaler calls scale, [unscale_], step, update in PyTorch's order and counts a step as skipped when opt.step() was not called", () => {
    const calls: string[] = [];
    const inner = new GradScaler({ initScale: 2 ** 20 });
    const spy: GradScalerLike = {
      scale: (l) => (calls.push("scale"), inner.scale(l)),
      unscale_: (o) => (calls.push("unscale_"), inner.unscale_(o)),
      step: (o) => (calls.push("step"), inner.step(o)),
      update: () => (calls.push("update"), inner.update()),
    };
    // 2^20 · 1 = 2^20 overflows fp16 (max 65504): skipped, scale halves
    const r = trainWithGradScaler(linear(1), [Float32Array.of(0)], () => null, spy, 1, { optimizer: { kind: "sgd", lr: 1 }, maxGradNorm: 1 });
    expect(calls).toEqual(["scale", "unscale_", "step", "update"]);
    expect(r.records).toEqual([{ step: 0, loss: 0, lossScale: 2 ** 20, skipped: true }]);
    expect(inner.getScale()).toBe(2 ** 19);
  });

  it("trainWithGradScaler: with S = 2^k and gradient c the first step is skipped exactly when c·2^k ≥ 65520 (fp16 overflow) (property)", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 8 }), (k, c) => {
      const r = trainWithGradScaler(linear(c), [Float32Array.of(0)], () => null, new GradScaler({ initScale: 2 ** k }), 1, { optimizer: { kind: "sgd", lr: 1 } });
      expect(r.records[0]!.skipped).toBe(c * 2 ** k >= 65520); // IEEE 754 binary16: 65520 and above round to inf
    }), { seed: 9, numRuns: 60 });
  });

  it("trainWithGradScaler rejects a bad step count and a scaler whose scale(1) is not a positive number", () => {
    const bad: GradScalerLike = { scale: () => NaN, unscale_: () => {}, step: () => {}, update: () => {} };
    expect(() => trainWithGradScaler(linear(1), [Float32Array.of(0)], () => null, new GradScaler(), 0, { optimizer: { kind: "sgd", lr: 1 } })).toThrow(new RangeError("steps must be an integer >= 1, got 0"));
    expect(() => trainWithGradScaler(linear(1), [Float32Array.of(0)], () => null, bad, 1, { optimizer: { kind: "sgd", lr: 1 } })).toThrow(new RangeError("scaler.scale(1) must return a positive number, got NaN"));
  });
});
