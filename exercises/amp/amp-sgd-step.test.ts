import * as fc from "fast-check";
import { defineExercise, expectSame, property } from "../harness/index.js";
import { ampStep, castArray, initAmpState, type AmpConfig } from "../../lib/amp/index.js";
import type { ampSgdStep } from "./amp-sgd-step.js";

/** The reference runs the course's ampStep with a model whose backward returns the given fp16 gradient. */
const reference: typeof ampSgdStep = (master, scaledGrad16, scale, lr) => {
  const cfg: AmpConfig = { precision: "fp16", lossScaling: scale, optimizer: { kind: "sgd", lr } };
  const model = { lossAndGrads: () => ({ loss: 0, grads: [Float32Array.from(scaledGrad16)] }) };
  const { state, record } = ampStep(model, initAmpState([master], cfg), null, cfg);
  return { master: state.master[0]!, skipped: record.skipped };
};
const f32 = (...v: number[]) => Float32Array.from(v);

export default defineExercise({
  id: "4.1",
  title: "one AMP step on a parameter vector",
  chapter: "amp",
  file: "exercises/amp/amp-sgd-step.ts",
  exportName: "ampSgdStep",
  signature: "ampSgdStep(master: Float32Array, scaledGrad16: Float32Array, scale: number, lr: number): {master: Float32Array, skipped: boolean}",
  summary:
    "Given fp32 master weights and the fp16 gradient of scale·loss, unscale into fp32 with fp32(1/scale), skip the step if any gradient is inf/NaN, otherwise update the fp32 master with SGD (w − lr·g). The update must not be rounded to fp16 and the unscaled gradient must stay fp32. Random steps accept 1 float32 ulp (rounding lr·g to float32 first, as PyTorch does, or rounding once).",
  reference,
  checks: [
    { name: "a small update survives in the fp32 master", points: 2, run: async (f) => {
        await expectSame(f, reference, [f32(1, -1, 2), f32(2, 3, -0.5), 65536, 1], { hint: "1 − 2/65536 is not an fp16 number: keep the master in float32 (Float32Array), never round it to fp16" });
    } },
    { name: "unscaled gradients stay fp32", points: 2, run: async (f) => {
        await expectSame(f, reference, [f32(0, 0), f32(1, 3), 2 ** 30, 2 ** 20], { hint: "g = 2^-30 is far below fp16's smallest subnormal 2^-24: after unscaling it must stay a float32 value, not be rounded to fp16" });
    } },
    { name: "skip on inf/NaN, weights unchanged", points: 2, run: async (f) => {
        await expectSame(f, reference, [f32(1, 2), f32(1, Infinity), 1024, 0.1], { hint: "an overflowed gradient means this step is skipped: return the master unchanged and skipped: true" });
        await expectSame(f, reference, [f32(1, 2), f32(NaN, 1), 1024, 0.1], { hint: "NaN also skips" });
    } },
    { name: "multiply by fp32(1/scale)", points: 1, run: async (f) => {
        await expectSame(f, reference, [f32(0.5, 0.25, 3), f32(3, 7, 11), 3, 1], { hint: "use Math.fround(1 / scale) as the multiplier, like PyTorch" });
    } },
    { name: "random steps", points: 2, run: (f) => property(
        fc.record({
          master: fc.array(fc.float({ min: -4, max: 4, noNaN: true }), { minLength: 1, maxLength: 6 }),
          k: fc.integer({ min: 0, max: 24 }),
          lr: fc.constantFrom(1, 0.1, 1e-3),
          seed: fc.integer({ min: 1, max: 1000 }),
        }),
        ({ master, k, lr, seed }) => {
          const g = castArray("fp16", Float32Array.from(master, (_, i) => Math.sin(seed * (i + 1)) * 2 ** (k - 8)));
          // PyTorch rounds lr·g to float32 before the subtraction; the reference rounds once: both are right, 1 float32 ulp apart at most.
          return expectSame(f, reference, [Float32Array.from(master), g, 2 ** k, lr], { tol: { rel: 2 ** -23 } }).then(() => {});
        },
        { numRuns: 50 },
    ) },
  ],
});
