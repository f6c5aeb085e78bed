import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { ampStep, initAmpState, type AmpConfig, type AmpModel } from "./ampStep.js";
import { caster } from "./castArray.js";
import { optimizerStep, initOptimizerState } from "../nn/optimizerStep.js";
import { AMP_LIVE_MODEL, charLmSetup } from "./charLmSetup.js";
import { trainAmp } from "./trainAmp.js";

/** loss = Σ c·w: the gradient is c, so backward returns S·c rounded to the precision. */
const linear = (c: number[]): AmpModel<null> => ({
  lossAndGrads: (w, _b, o) => ({ loss: w[0]!.reduce((s, x, i) => s + x * c[i]!, 0), grads: [Float32Array.from(c, (x) => caster(o.precision)(x * o.lossScale))] }),
});
const sgd = { kind: "sgd", lr: 1 } as const;

describe("ampStep", () => {
  it("ampStep traces cast → forward-backward → unscale → check-inf → optimizer-step → update-scale", () => {
    const cfg: AmpConfig = { precision: "fp16", lossScaling: "dynamic", optimizer: sgd };
    const { state, record } = ampStep(linear([2 ** -20]), initAmpState([Float32Array.of(1)], cfg), null, cfg);
    expect(record.events.map((e) => e.kind)).toEqual(["cast-weights", "forward-backward", "unscale", "check-inf", "optimizer-step", "update-scale"]);
    // 2^-20 underflows fp16's normal range but 2^16·2^-20 = 2^-4 is exact: unscaled back to 2^-20 in fp32
    expect(state.master[0]![0]).toBe(Math.fround(1 - 2 ** -20));
    expect([state.scale, state.growthTracker, record.lossScale]).toEqual([65536, 1, 65536]);
  });

  it("ampStep without loss scaling loses a 2^-26 gradient in fp16 (below half of 2^-24)", () => {
    const cfg: AmpConfig = { precision: "fp16", lossScaling: "none", optimizer: sgd };
    const { state, record } = ampStep(linear([2 ** -26]), initAmpState([Float32Array.of(1)], cfg), null, cfg);
    expect(state.master[0]![0]).toBe(1);
    expect(record.zeroGradFraction).toBe(1);
    expect(record.events.map((e) => e.kind)).not.toContain("check-inf");
  });

  it("ampStep skips the update on overflow, halves the scale and resets the tracker", () => {
    const cfg: AmpConfig = { precision: "fp16", lossScaling: "dynamic", scaler: { initScale: 2 ** 16 }, optimizer: sgd };
    const s0 = { ...initAmpState([Float32Array.of(1)], cfg), growthTracker: 7 };
    const { state, record } = ampStep(linear([1]), s0, null, cfg); // 65536·1 > 65504 → inf in fp16
    expect(record.skipped).toBe(true);
    expect(record.events.map((e) => e.kind)).toContain("skip");
    expect([state.master[0]![0], state.scale, state.growthTracker]).toEqual([1, 32768, 0]);
    expect(state.opt).toBe(s0.opt);
  });

  it("ampStep grows the scale after growthInterval clean steps (trace)", () => {
    const cfg: AmpConfig = { precision: "fp16", lossScaling: "dynamic", scaler: { initScale: 4, growthInterval: 2 }, optimizer: sgd };
    let s = initAmpState([Float32Array.of(0)], cfg);
    const scales: number[] = [];
    for (let i = 0; i < 5; i++) { s = ampStep(linear([0.5]), s, null, cfg).state; scales.push(s.scale); }
    expect(scales).toEqual([4, 8, 8, 16, 16]);
  });

  it("ampStep without fp32 master weights loses updates smaller than half an fp16 ulp of the weight", () => {
    const base: AmpConfig = { precision: "fp16", lossScaling: "dynamic", optimizer: sgd };
    const run = (masterWeights: boolean) => {
      const cfg = { ...base, masterWeights };
      let s = initAmpState([Float32Array.of(1)], cfg);
      for (let i = 0; i < 100; i++) s = ampStep(linear([2 ** -12]), s, null, cfg).state; // lr·g = 2^-12 < 2^-11 = half ulp(1)
      return s.master[0]![0]!;
    };
    expect(run(false)).toBe(1);
    expect(run(true)).toBeCloseTo(1 - 100 * 2 ** -12, 6);
  });

  it("ampStep without a scaler applies non-finite gradients (nothing checks them)", () => {
    const cfg: AmpConfig = { precision: "fp16", lossScaling: "none", optimizer: sgd };
    const { state } = ampStep(linear([1e6]), initAmpState([Float32Array.of(1)], cfg), null, cfg);
    expect(state.master[0]![0]).toBe(-Infinity);
  });

  it("ampStep with a power-of-two scale in fp32 takes exactly the unscaled step (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.float({ min: Math.fround(-1), max: Math.fround(1), noNaN: true }), { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 20 }), (c, k) => {
        const none: AmpConfig = { precision: "fp32", lossScaling: "none", optimizer: { kind: "adamw", lr: 1e-2 } };
        const stat: AmpConfig = { ...none, lossScaling: 2 ** k };
        const w = Float32Array.from(c, (_, i) => i / 7);
        const a = ampStep(linear(c), initAmpState([w], none), null, none).state.master[0]!;
        const b = ampStep(linear(c), initAmpState([w], stat), null, stat).state.master[0]!;
        expect([...b]).toEqual([...a]);
        expect([...a]).toEqual([...optimizerStep([w], [Float32Array.from(c)], initOptimizerState([w]), none.optimizer).params[0]!]);
      }),
      { seed: 5, numRuns: 60 },
    );
  });

  it("ampStep clips the unscaled gradients to maxGradNorm", () => {
    const cfg: AmpConfig = { precision: "fp32", lossScaling: "dynamic", optimizer: sgd, maxGradNorm: 1 };
    const { state, record } = ampStep(linear([3, 4]), initAmpState([Float32Array.of(0, 0)], cfg), null, cfg);
    expect(record.gradNorm).toBe(5);
    expect(Math.hypot(...state.master[0]!)).toBeCloseTo(1, 5);
  });

  it("initAmpState rejects a bad static scale and bad scaler options", () => {
    expect(() => initAmpState([], { precision: "fp16", lossScaling: -1, optimizer: sgd })).toThrow(/lossScaling must be "none", "dynamic" or a positive finite number, got -1/);
    expect(() => initAmpState([], { precision: "fp16", lossScaling: "dynamic", scaler: { growthFactor: 0.5 }, optimizer: sgd })).toThrow(/growthFactor/);
  });
});

describe("trainAmp", () => {
  it("trainAmp on lib/nn's char LM (AMP_LIVE_MODEL) with 4M-token steps: fp32, bf16 and fp16+GradScaler learn; fp16 without scaling does not", () => {
    const setup = charLmSetup({ model: AMP_LIVE_MODEL, batchSize: 8, seqLen: 8, tokensPerStep: 2 ** 22, steps: 150 });
    const opt = { kind: "adamw", lr: 1e-2 } as const;
    const last = (cfg: AmpConfig) => {
      const r = trainAmp(setup.model, setup.init, setup.batch, cfg, 150).records;
      return r.slice(-20).reduce((s, x) => s + x.loss, 0) / 20;
    };
    const fp32 = last({ precision: "fp32", lossScaling: "none", optimizer: opt });
    const bf16 = last({ precision: "bf16", lossScaling: "none", optimizer: opt });
    const dyn = last({ precision: "fp16", lossScaling: "dynamic", optimizer: opt });
    const none = last({ precision: "fp16", lossScaling: "none", optimizer: opt });
    expect(fp32).toBeLessThan(Math.log(setup.vocabSize) - 1); // well below a uniform guess
    expect(Math.abs(bf16 - fp32)).toBeLessThan(0.05);
    expect(Math.abs(dyn - fp32)).toBeLessThan(0.05);
    expect(none).toBeGreaterThan(fp32 + 0.5);
  });
});
