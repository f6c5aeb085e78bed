// Grader of the chapter's "build it" exercise: the student's CPU step runs inside lib/offload's
// trainOffloaded (lib/nn's model computing in fp16 on the "GPU") for 30 steps, with and without DPU.
import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property, fail, callSafely, type AnyFunction } from "../harness/index.js";
import { offloadStep as lib, trainOffloaded } from "../../lib/offload/index.js";
import { roundTo } from "../../lib/nn/index.js";
import type { offloadStep, CpuState, CpuStepConfig } from "./offload-step.js";

type F = typeof offloadStep;
const reference: F = (s, g, c) => lib(s, g, c);
const HINT = "the chapter's section \"Build it: the CPU step\"";
const fresh = (xs: number[][], t = 0): CpuState => ({ t, master: xs.map((x) => Float32Array.from(x)), m: xs.map((x) => new Float32Array(x.length)), v: xs.map((x) => new Float32Array(x.length)) });
const f16 = (x: number) => roundTo("fp16", x);
const vec = fc.array(fc.integer({ min: -4000, max: 4000 }).map((v) => v / 1000), { minLength: 1, maxLength: 7 });

async function run(f: F, config: CpuStepConfig) {
  let calls = 0;
  return trainOffloaded(async (s, g, c) => {
    calls++;
    return callSafely(f as AnyFunction, [s, g, c], { hint: HINT, label: `offloadStep(state at t = ${s.t}, grads16, ${JSON.stringify(c)}) (call ${calls} of the training run)` }) as Promise<ReturnType<F>>;
  }, { steps: 30, config });
}
const refRuns = new Map<string, Awaited<ReturnType<typeof run>>>();

async function compareRun(f: F, config: CpuStepConfig, what: string) {
  const key = JSON.stringify(config);
  if (!refRuns.has(key)) refRuns.set(key, await run(reference, config));
  const want = refRuns.get(key)!;
  const got = await run(f, config);
  const step = got.losses.findIndex((l, i) => !(Math.abs(l - want.losses[i]) <= 1e-6 * Math.abs(want.losses[i])));
  if (step >= 0) fail(`training ${what}: the loss at step ${step} is ${got.losses[step]}, the reference run's is ${want.losses[step]} (relative tolerance 1e-6)`, HINT);
  let num = 0, den = 0;
  got.state.master.forEach((a, j) => Array.from(a).forEach((x, i) => { num += (x - want.state.master[j][i]) ** 2; den += want.state.master[j][i] ** 2; }));
  const err = Math.sqrt(num / den);
  if (!(err <= 1e-6)) fail(`training ${what}: after 30 steps the master is ${err.toExponential(2)} away from the reference run's (relative L2; tolerance 1e-6)`, HINT);
}

export default defineExercise<F>({
  id: "9.2",
  title: "build it: the CPU step of ZeRO-Offload trains the model",
  chapter: "offload",
  build: true,
  section: "build-it-the-cpu-step",
  file: "exercises/offload/offload-step.ts",
  exportName: "offloadStep",
  signature: "offloadStep(state: {t, master, m, v}, grads16: Float32Array[], config: {lr?, betas?, eps?, weightDecay?, dpu?, dpuWarmupSteps?}): {state, params16}",
  summary:
    "Write the CPU side of one ZeRO-Offload step: AdamW on the fp32 master from fp16 gradients, fp16 parameters back, and the one-step delayed update with its warm-up. The grader then trains lib/nn's model (fp16 compute on the \"GPU\") for 30 steps with your step, with and without DPU, and compares losses and master with the reference run.",
  solution: ["lib/offload/offloadStep.ts"],
  reference,
  checks: [
    { name: "the stub's example", points: 2, run: async (f) => {
        await expectSame(f, reference, [fresh([[1]]), [Float32Array.of(0.5)], { lr: 0.1, weightDecay: 0 }], { hint: HINT });
    } },
    { name: "the master follows AdamW; the GPU gets its fp16 rounding", points: 5, run: (f) => property(
        fc.record({ xs: fc.array(vec, { minLength: 1, maxLength: 3 }), t: fc.integer({ min: 0, max: 50 }), lr: fc.integer({ min: 1, max: 100 }).map((v) => v / 1000), wd: fc.constantFrom(0, 0.01, 0.1) }),
        async ({ xs, t, lr, wd }) => {
          const s = fresh(xs, t);
          s.m = xs.map((x) => Float32Array.from(x, (v) => v / 10));
          s.v = xs.map((x) => Float32Array.from(x, (v) => (v * v) / 100));
          const g = xs.map((x) => Float32Array.from(x, (v) => f16(v / 7 - 0.1)));
          await expectSame(f, reference, [s, g, { lr, weightDecay: wd }], { hint: `round the parameters you send to fp16, never the master; AdamW's bias correction uses t + 1: ${HINT}` });
        }, { numRuns: 60 }) },
    { name: "the delayed update and its warm-up", points: 5, run: (f) => property(
        fc.record({ xs: fc.array(vec, { minLength: 1, maxLength: 3 }), t: fc.integer({ min: 0, max: 6 }), warm: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }) }),
        async ({ xs, t, warm }) => {
          const g = xs.map((x) => Float32Array.from(x, (v) => f16(v / 3)));
          const c: CpuStepConfig = warm === undefined ? { dpu: true, lr: 0.05 } : { dpu: true, dpuWarmupSteps: warm, lr: 0.05 };
          await expectSame(f, reference, [fresh(xs, t), g, c], { hint: `with DPU the GPU gets the update before this one, except during the warm-up: ${HINT}` });
        }, { numRuns: 60 }) },
    { name: "bad input names the field", points: 2, run: async (f) => {
        await expectThrows(f, [fresh([[1], [2]]), [Float32Array.of(1)], {}], /^grads16 must have one tensor per parameter \(2\), got 1$/, { class: RangeError, hint: "one gradient per parameter" });
        await expectThrows(f, [fresh([[1]]), [Float32Array.of(1)], { dpu: true, dpuWarmupSteps: -1 }], /^dpuWarmupSteps must be an integer >= 0, got -1$/, { class: RangeError });
    } },
    { name: "trains lib/nn's model like the reference (30 steps, synchronous)", points: 5, run: async (f) => { await compareRun(f, { lr: 1e-2 }, "without DPU"); } },
    { name: "trains lib/nn's model like the reference (30 steps, DPU after 5)", points: 5, run: async (f) => { await compareRun(f, { lr: 1e-2, dpu: true, dpuWarmupSteps: 5 }, "with DPU after 5 warm-up steps"); } },
  ],
});
