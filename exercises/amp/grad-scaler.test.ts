import { CheckFailure, callSafely, defineExercise, formatValue, isNotImplemented } from "../harness/index.js";
import { AMP_LIVE_MODEL, GradScaler, charLmSetup, trainWithGradScaler, type ScalerStepRecord, type TrainWithGradScalerOptions } from "../../lib/amp/index.js";
import type { createGradScaler, ScalerOptimizer, StudentGradScaler } from "./grad-scaler.js";

type F = typeof createGradScaler;
const SECTION = "py-torchs-grad-scaler";
/** The page's sections the hints name: title and anchor, as chapter 1's hints do. */
const TITLES: Record<string, string> = {
  "py-torchs-grad-scaler": "PyTorch's GradScaler",
  "unscale-then-check-unscale-before-clipping": "Unscale, then check; unscale before clipping",
  "build-it-your-grad-scaler-trains-the-model": "Build it: your GradScaler trains the model",
};
const see = (s = SECTION) => `see the page's section "${TITLES[s]}" (src/amp.md#${s})`;
const BUILD = "build-it-your-grad-scaler-trains-the-model";

/** The reference: the course's GradScaler (lib/amp/GradScaler.ts). */
const reference: F = (options) => new GradScaler(options);

// ── the training runs (the course's fp16 training of lib/nn's char LM, design B) ──
const RUNS = {
  // from 2^30 the scale grows five times in a row to 2^35, which overflows fp16; then it probes 2^35 every 6 clean steps
  overflows: { scaler: { initScale: 2 ** 30, growthInterval: 6 }, steps: 80, train: { optimizer: { kind: "adamw", lr: 1e-2 } } as TrainWithGradScalerOptions },
  // from 2^36: two skipped steps of calibration, then unscale_ before clipping on every clean step
  clipping: { scaler: { initScale: 2 ** 36, growthInterval: 5 }, steps: 30, train: { optimizer: { kind: "adamw", lr: 1e-2 }, maxGradNorm: 0.5 } as TrainWithGradScalerOptions },
};
type RunName = keyof typeof RUNS;
type Run = { records: ScalerStepRecord[]; weights: Float32Array[] } | { error: string };
let setup: ReturnType<typeof charLmSetup> | null = null;
const data = () => (setup ??= charLmSetup({ model: AMP_LIVE_MODEL, batchSize: 8, seqLen: 8, tokensPerStep: 2 ** 22, steps: 80 }));
const runs = new WeakMap<F, Map<RunName, Promise<Run>>>();

/** Trains with the scaler `impl` makes (once per impl and run; the checks share it). */
function run(impl: F, name: RunName): Promise<Run> {
  let m = runs.get(impl);
  if (!m) runs.set(impl, (m = new Map()));
  let p = m.get(name);
  if (!p) {
    p = (async () => {
      const r = RUNS[name];
      let scaler: StudentGradScaler;
      try { scaler = await impl({ ...r.scaler }); } catch (e) { if (isNotImplemented(e)) throw e; return { error: `createGradScaler(${formatValue(r.scaler)}) threw ${(e as Error)?.name}: ${(e as Error)?.message}` }; }
      if (!scaler || typeof scaler !== "object") return { error: `createGradScaler must return a scaler object, got ${formatValue(scaler)}` };
      try {
        const s = data();
        return trainWithGradScaler(s.model, s.init, s.batch, scaler, r.steps, r.train);
      } catch (e) {
        if (isNotImplemented(e)) throw e;
        return { error: `the training loop stopped: ${(e as Error)?.name}: ${(e as Error)?.message}` };
      }
    })();
    m.set(name, p);
  }
  return p;
}

async function both(impl: F, name: RunName, hint: string) {
  const [mine, ref] = await Promise.all([run(impl, name), run(reference, name)]);
  if ("error" in ref) throw new Error(`reference run failed: ${ref.error}`);
  if ("error" in mine) throw new CheckFailure({ call: `trainWithGradScaler(…, createGradScaler(${formatValue(RUNS[name].scaler)}), ${RUNS[name].steps} steps)`, detail: mine.error, hint });
  return { mine, ref };
}

const label = (name: RunName) => `trainWithGradScaler(char LM, createGradScaler(${formatValue(RUNS[name].scaler)}), ${RUNS[name].steps} steps${RUNS[name].train.maxGradNorm ? `, clip to ${RUNS[name].train.maxGradNorm}` : ""})`;

async function compareTrace(impl: F, name: RunName, what: "lossScale" | "skipped", hint: string) {
  const { mine, ref } = await both(impl, name, hint);
  const i = ref.records.findIndex((r, k) => r[what] !== mine.records[k]?.[what]);
  if (i >= 0) {
    throw new CheckFailure({ call: label(name), detail: `${what === "lossScale" ? "loss scale" : "skipped"} differs first at step ${i} (${ref.records.slice(0, i).filter((r) => r.skipped).length} skips before it)`, expected: formatValue(ref.records[i]![what]), received: formatValue(mine.records[i]?.[what]), hint });
  }
}

async function compareWeights(impl: F, name: RunName, hint: string) {
  const { mine, ref } = await both(impl, name, hint);
  for (let k = 0; k < ref.weights.length; k++) for (let j = 0; j < ref.weights[k]!.length; j++) {
    if (!Object.is(ref.weights[k]![j], mine.weights[k]?.[j])) {
      throw new CheckFailure({ call: label(name), detail: `final weights differ at parameter ${k}, element ${j}`, expected: formatValue(ref.weights[k]![j]), received: formatValue(mine.weights[k]?.[j]), tolerance: "bit for bit (the same loop and optimizer; only the scaler is yours)", hint });
    }
  }
}

// ── unit checks on a fake optimizer ──
const fakeOpt = (...grads: (number[] | null)[]) => {
  const o = { grads: grads.map((g) => (g ? Float32Array.from(g) : null)), steps: 0, step() { o.steps++; } };
  return o;
};
async function make(impl: F, options: Parameters<F>[0], hint: string): Promise<StudentGradScaler> {
  const s = await callSafely(impl, [options] as Parameters<F>, { hint, name: "createGradScaler" });
  if (!s || typeof s !== "object") throw new CheckFailure({ call: `createGradScaler(${formatValue(options)})`, detail: `must return a scaler object, got ${formatValue(s)}`, hint });
  return s;
}
/** Calls a method; a throw becomes a CheckFailure naming the call. */
function call<T>(what: string, f: () => T, hint: string): T {
  try { return f(); } catch (e) { if (isNotImplemented(e)) throw e; throw new CheckFailure({ call: what, detail: `threw ${(e as Error)?.name}: ${(e as Error)?.message}`, hint }); }
}
function same(what: string, received: unknown, expected: unknown, hint: string) {
  const eq = expected instanceof Float32Array ? received instanceof Float32Array && received.length === expected.length && expected.every((v, i) => Object.is(v, received[i])) : Object.is(received, expected);
  if (!eq) throw new CheckFailure({ call: what, expected: formatValue(expected), received: formatValue(received), hint });
}
/** One iteration: scale, step, update on a fake optimizer; returns the optimizer. */
function iteration(s: StudentGradScaler, grads: (number[] | null)[], hint: string) {
  const o = fakeOpt(...grads);
  call("scaler.scale(1)", () => s.scale(1), hint);
  call(`scaler.step({grads: ${formatValue(grads)}})`, () => s.step(o as ScalerOptimizer), hint);
  call("scaler.update()", () => s.update(), hint);
  return o;
}
async function expectError(f: () => unknown, what: string, cls: ErrorConstructor, pattern: RegExp, hint: string) {
  let err: unknown = null;
  try { await f(); } catch (e) { if (isNotImplemented(e)) throw e; err = e; }
  if (err instanceof cls && pattern.test((err as Error).message)) return;
  throw new CheckFailure({ call: what, detail: err ? `threw ${(err as Error)?.name}: ${(err as Error)?.message}` : "did not throw", expected: `${cls.name} matching ${pattern}`, hint });
}

export default defineExercise({
  id: "4.4",
  title: "build it: a GradScaler that trains the model",
  chapter: "amp",
  build: true,
  section: SECTION,
  file: "exercises/amp/grad-scaler.ts",
  exportName: "createGradScaler",
  signature: "createGradScaler(options?: {initScale?, growthFactor?, backoffFactor?, growthInterval?}): {scale(loss), unscale_(opt), step(opt), update(), getScale(), getGrowthTracker()}",
  summary:
    "Write torch.amp.GradScaler (defaults, float32 scale, unscale_ / step / update semantics and PyTorch's errors) as a factory returning a scaler object. The course's fp16 training of lib/nn runs with it through overflows (trainWithGradScaler) and is graded on the loss-scale trace, the skipped steps and the final weights against the run with the course's GradScaler; checks of each method give partial credit.",
  reference,
  checks: [
    { name: "defaults of torch.amp.GradScaler", points: 1, run: async (f) => {
        const hint = `torch.amp.GradScaler's defaults; ${see()}`;
        const s = await make(f, undefined, hint);
        same("createGradScaler().scale(1)", call("scale(1)", () => s.scale(1), hint), 65536, hint);
        for (let i = 0; i < 1999; i++) iteration(s, [[1]], hint);
        same("getGrowthTracker() after 1999 clean iterations", call("getGrowthTracker()", () => s.getGrowthTracker(), hint), 1999, hint);
        same("getScale() after 1999 clean iterations", call("getScale()", () => s.getScale(), hint), 65536, hint);
        iteration(s, [[1]], hint);
        same("getScale() after 2000 clean iterations", call("getScale()", () => s.getScale(), hint), 131072, hint);
        iteration(s, [[Infinity]], hint);
        same("getScale() after an overflow", call("getScale()", () => s.getScale(), hint), 65536, hint);
    } },
    { name: "scale(loss) multiplies by the float32 scale", points: 1, run: async (f) => {
        const hint = `S is a float32 value; ${see()}`;
        const s = await make(f, { initScale: 3.3 }, hint);
        same("createGradScaler({initScale: 3.3}).scale(2)", call("scale(2)", () => s.scale(2), hint), Math.fround(2 * Math.fround(3.3)), hint);
        same("getScale()", call("getScale()", () => s.getScale(), hint), Math.fround(3.3), hint);
        // a loss that is not a float32 value: the product is the float32 rounding of loss × S (the contract)
        same("createGradScaler({initScale: 3.3}).scale(0.1)", call("scale(0.1)", () => s.scale(0.1), hint), Math.fround(0.1 * Math.fround(3.3)), `${hint}: the product is rounded to float32 too`);
        const d = await make(f, {}, hint);
        same("createGradScaler({}).scale(0.5)", call("scale(0.5)", () => d.scale(0.5), hint), 32768, hint);
    } },
    { name: "unscale_ multiplies by fp32(1/S) in place", points: 2, run: async (f) => {
        const hint = `the multiplier and the dtype of the products; ${see("unscale-then-check-unscale-before-clipping")}`;
        const s = await make(f, { initScale: 3 }, hint);
        call("scale(1)", () => s.scale(1), hint);
        const o = fakeOpt([1, 5, 7, 1e-3, 3.3], null, [-0, 6]);
        call("unscale_({grads: [[1, 5, 7, 0.001, 3.3], null, [-0, 6]]})", () => s.unscale_(o as ScalerOptimizer), hint);
        const inv = Math.fround(1 / 3);
        same("grads[0] after unscale_ (in place)", o.grads[0], Float32Array.from([1, 5, 7, 1e-3, 3.3].map((v) => Math.fround(v) * inv)), hint);
        same("grads[1] (null: no gradient)", o.grads[1], null, hint);
        same("grads[2] after unscale_", o.grads[2], Float32Array.from([-0 * inv, 6 * inv]), hint);
        same("optimizer.step() calls during unscale_", o.steps, 0, "unscale_ does not step");
    } },
    { name: "step skips on inf/NaN, tested on the gradients as given", points: 2, run: async (f) => {
        const hint = `when does optimizer.step() run, and which values are tested? ${see("unscale-then-check-unscale-before-clipping")}`;
        const s = await make(f, { initScale: 1024 }, hint);
        same("optimizer.step() calls for grads [[1, 2], [3]]", iteration(s, [[1, 2], [3]], hint).steps, 1, hint);
        same("optimizer.step() calls for grads [[1], [Infinity, NaN]] (a row with both)", iteration(s, [[1], [Infinity, NaN]], hint).steps, 0, hint);
        same("optimizer.step() calls for grads [[-Infinity]]", iteration(s, [[-Infinity]], hint).steps, 0, hint);
        same("optimizer.step() calls for grads [[NaN], null]", iteration(s, [[NaN], null], hint).steps, 0, hint);
        // S = 1/16: the inverse is 16 and 3e38·16 overflows float32, but the gradient as given is finite
        const t = await make(f, { initScale: 1 / 16 }, hint);
        same("optimizer.step() calls for grads [[3e38]] with S = 1/16", iteration(t, [[3e38]], hint).steps, 1, hint);
    } },
    { name: "update: backoff, growth and the tracker", points: 2, run: async (f) => {
        const hint = `compare with the page's trace table (growth_interval 3); ${see()}`;
        const o = { initScale: 1024, growthInterval: 3 };
        const s = await make(f, o, hint), r = new GradScaler(o);
        const pattern = [false, false, false, false, true, false, false, false, false, false, false];
        for (let i = 0; i < pattern.length; i++) {
          const g = [[pattern[i] ? Infinity : 1]];
          iteration(s, g, hint);
          iteration(r, g, hint);
          same(`getScale() after iteration ${i} of [${pattern.map((x) => (x ? "inf" : "ok")).join(", ")}]`, call("getScale()", () => s.getScale(), hint), r.getScale(), hint);
          same(`getGrowthTracker() after iteration ${i}`, call("getGrowthTracker()", () => s.getGrowthTracker(), hint), r.getGrowthTracker(), hint);
        }
    } },
    { name: "update at the float32 maximum: no growth, tracker reset", points: 1, run: async (f) => {
        // S × growth = 2^128 is Infinity in float32: the scale stays, but the tracker is reset all the same
        // (pytorch/pytorch@e402fa84624c76d0e6fa4483d327df0d42acbc6e aten/src/ATen/native/cpu/AmpGradScalerKernels.cpp,
        // _amp_update_scale_cpu_kernel: `*growth_tracker_ptr = 0` follows the `if (std::isfinite(new_scale))` that guards only the scale)
        const hint = `when S × growth is infinite in float32 the scale stays, and the tracker? ${see()}`;
        const o = { initScale: 2 ** 127, growthInterval: 3 };
        const s = await make(f, o, hint);
        for (let i = 1; i <= 7; i++) {
          iteration(s, [[1]], hint);
          same(`getScale() after ${i} clean iterations from S = 2^127 (growthInterval 3)`, call("getScale()", () => s.getScale(), hint), 2 ** 127, hint);
          same(`getGrowthTracker() after ${i} clean iterations from S = 2^127 (growthInterval 3)`, call("getGrowthTracker()", () => s.getGrowthTracker(), hint), i % 3, hint);
        }
    } },
    { name: "PyTorch's errors", points: 2, run: async (f) => {
        const hint = "the contract lists PyTorch's errors and their messages";
        const s = await make(f, {}, hint);
        call("scale(1)", () => s.scale(1), hint);
        const o = fakeOpt([1]);
        call("unscale_(opt)", () => s.unscale_(o as ScalerOptimizer), hint);
        await expectError(() => s.unscale_(o as ScalerOptimizer), "unscale_(opt) a second time", Error, /^unscale_\(\) has already been called on this optimizer since the last update\(\)\.$/, hint);
        call("step(opt)", () => s.step(o as ScalerOptimizer), hint);
        await expectError(() => s.step(o as ScalerOptimizer), "step(opt) a second time", Error, /^step\(\) has already been called since the last update\(\)\.$/, hint);
        call("update()", () => s.update(), hint);
        same("optimizer.step() calls", o.steps, 1, hint);
        // an iteration with nothing unscaled: update() has no inf check to go by
        call("scale(1)", () => s.scale(1), hint);
        const before = call("getScale()", () => s.getScale(), hint), tracker = call("getGrowthTracker()", () => s.getGrowthTracker(), hint);
        await expectError(() => s.update(), "update() with no unscale_ or step since the last update()", Error, /^No inf checks were recorded prior to update\.$/, `${hint}: update() needs this iteration's inf checks`);
        same("getScale() after the refused update()", call("getScale()", () => s.getScale(), hint), before, `${hint}: a refused update() changes nothing`);
        same("getGrowthTracker() after the refused update()", call("getGrowthTracker()", () => s.getGrowthTracker(), hint), tracker, `${hint}: a refused update() changes nothing`);
        for (const [opts, field] of [[{ initScale: 0 }, "initScale"], [{ initScale: Infinity }, "initScale"], [{ growthFactor: 1 }, "growthFactor"], [{ backoffFactor: 1 }, "backoffFactor"], [{ growthInterval: 0.5 }, "growthInterval"]] as const) {
          await expectError(() => f(opts), `createGradScaler(${formatValue(opts)})`, RangeError, new RegExp(field), `${hint}: a RangeError naming ${field}`);
        }
    } },
    { name: "training: loss-scale trace", points: 5, run: (f) => compareTrace(f, "overflows", "lossScale", `the scale S the loop read with scale(1) at each step; ${see(BUILD)}`) },
    { name: "training: skipped steps", points: 2, run: (f) => compareTrace(f, "overflows", "skipped", `a step is skipped when optimizer.step() was not called; ${see(BUILD)}`) },
    { name: "training: final weights", points: 4, run: (f) => compareWeights(f, "overflows", `the same loop and optimizer: the weights differ only if unscaling or skipping differ; ${see(BUILD)}`) },
    { name: "training with clipping: unscale_ then step", points: 2, run: async (f) => {
        const hint = `the loop calls unscale_, clips, then step: ${see("unscale-then-check-unscale-before-clipping")}`;
        await compareTrace(f, "clipping", "skipped", hint);
        await compareWeights(f, "clipping", hint);
    } },
  ],
});
