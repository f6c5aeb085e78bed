// Grader of the chapter's "build it" exercise: the student's SophiaG step trains lib/nn's
// character model (30 steps, GNB curvature every 4 steps) and is compared with the reference run.
import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property, fail, callSafely, type AnyFunction } from "../harness/index.js";
import { sophiagStep as lib, hessianEma, isHessianStep, gnbGradients } from "../../lib/sophia/index.js";
import { corpus, createModel, DEFAULT_MODEL, forward, backward, sampleBatch, mulberry32, zeroGrad } from "../../lib/nn/index.js";
import type { sophiagStep, SophiaConfig } from "./sophiag-step.js";

type F = typeof sophiagStep;
const reference: F = (t, g, m, h, c) => { const r = lib(t, g, m, h, c); return { theta: Array.from(r.theta), m: Array.from(r.m) }; };
const tol = { tol: { abs: 1e-12, rel: 1e-10 } };
const HINT = "the chapter's section \"The algorithm line by line\"";

async function rangeError(f: F, args: Parameters<F>, re: RegExp, hint: string) {
  await expectThrows(f as AnyFunction, args as unknown[], re, { class: RangeError, hint });
}

/** 30 steps of lib/nn's model with `step` on every parameter; GNB curvature after steps with i % 4 == 3. */
async function train(step: F, steps = 30, k = 4): Promise<{ weights: number[]; losses: number[] }> {
  const { vocab, tokens } = corpus();
  const model = createModel({ ...DEFAULT_MODEL, vocabSize: vocab.size, width: 16, hiddenDim: 32, numBlocks: 1, seed: 3 });
  const data = mulberry32(5), est = mulberry32(6);
  const cfg: SophiaConfig = { lr: 3e-3, rho: 0.05, weightDecay: 0.1, betas: [0.965, 0.99] };
  const m = model.params.map((p) => new Array<number>(p.data.length).fill(0)), h = model.params.map((p) => new Array<number>(p.data.length).fill(0));
  const losses: number[] = [];
  for (let s = 0; s < steps; s++) {
    const batch = sampleBatch(tokens, { batchSize: 4, seqLen: 16, contextLength: DEFAULT_MODEL.contextLength }, data);
    zeroGrad(model.params);
    const f = forward(model, batch);
    backward(model, f);
    losses.push(f.loss);
    for (let j = 0; j < model.params.length; j++) {
      const p = model.params[j]!;
      const r = await callSafely(step, [Array.from(p.data), Array.from(p.grad), m[j]!, h[j]!, { ...cfg, bs: f.tokenCount }], { hint: HINT, label: `sophiagStep on ${p.name} at step ${s}` });
      if (!r || !Array.isArray(r.theta) && !ArrayBuffer.isView(r.theta)) fail(`sophiagStep returned ${JSON.stringify(r)?.slice(0, 80)}, not {theta, m}`, HINT);
      p.data.set(Array.from(r.theta as ArrayLike<number>));
      m[j] = Array.from(r.m as ArrayLike<number>);
    }
    if (isHessianStep(s, k)) {
      gnbGradients(model, sampleBatch(tokens, { batchSize: 4, seqLen: 16, contextLength: DEFAULT_MODEL.contextLength }, data), est);
      model.params.forEach((p, j) => { h[j] = Array.from(hessianEma(h[j]!, p.grad, 0.99)); });
    }
  }
  return { weights: model.params.flatMap((p) => Array.from(p.data)), losses };
}
let refRun: { weights: number[]; losses: number[] } | undefined;

// values on a 1/1000 grid: fc.double alone favours denormals, where every update rounds to nothing
const vec = (min: number, max: number) => fc.oneof(fc.constant(0), fc.integer({ min: min * 1000, max: max * 1000 }).map((v) => v / 1000));

export default defineExercise({
  id: "11.4",
  title: "build it: the SophiaG step trains the model",
  chapter: "sophia",
  file: "exercises/sophia/sophiag-step.ts",
  exportName: "sophiagStep",
  signature: "sophiagStep(theta, grad, m, h, {lr?, betas?, rho?, weightDecay?, bs?}): {theta, m}",
  build: true,
  section: "the-algorithm-line-by-line",
  summary:
    "Write one step of SophiaG exactly as the authors' sophia.py does it (weight decay, gradient EMA, the clipped update with ρ, bs and its ε where the code puts them, the code's behaviour for h <= 0). The grader then trains the course's character model for 30 steps with your step, the GNB curvature refreshed every 4 steps, and compares the weights and losses with the reference run (relative 1e-6).",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => { await expectSame(f, reference, [[1], [0.5], [0], [0.5], { lr: 0.1, betas: [0.5, 0.9], rho: 1, weightDecay: 0, bs: 1 }], { ...tol, hint: HINT }); } },
    { name: "random vectors, zero and negative curvature", points: 2, run: (f) => property(
        fc.record({ rows: fc.array(fc.tuple(vec(-3, 3), vec(-2, 2), vec(-1, 1), vec(-2, 2)), { minLength: 1, maxLength: 8 }), lr: fc.double({ min: 1e-4, max: 0.5, noNaN: true }), rho: fc.double({ min: 0.01, max: 2, noNaN: true }), bs: fc.integer({ min: 1, max: 64 }), wd: vec(0, 0.5) }),
        async ({ rows, lr, rho, bs, wd }) => {
          const c: SophiaConfig = { lr, rho, bs, weightDecay: wd, betas: [0.9, 0.99] };
          await expectSame(f, reference, [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3]), c], { ...tol, hint: `follow the code where h <= 0, and check where ρ and bs enter: ${HINT}` });
        }, { numRuns: 60 }) },
    { name: "the code's defaults when fields are omitted", points: 1, run: async (f) => {
        await expectSame(f, reference, [[1, -1, 0.5], [0.3, -0.2, 0], [0.1, 0, -0.1], [1e-6, 2e-6, 0], {}], { ...tol, hint: "omitted fields take sophia.py's defaults (lr, betas, rho, weight_decay, and step's bs)" });
        await expectSame(f, reference, [[2], [-1e-3], [0], [1e-7], { lr: 0.01 }], { ...tol, hint: "omitted fields take sophia.py's defaults" });
    } },
    { name: "bad input names the field", points: 1, run: async (f) => {
        const a: [number[], number[], number[], number[]] = [[1], [1], [0], [0]];
        await rangeError(f, [...a, { rho: 0 }], /rho/, "ρ <= 0 is not Sophia (the code accepts 0; the chapter does not)");
        await rangeError(f, [...a, { betas: [1, 0.99] }], /betas\[0\]/, "β1 in [0, 1)");
        await rangeError(f, [...a, { betas: [0.9, 1.5] }], /betas\[1\]/, "β2 in [0, 1)");
        await rangeError(f, [...a, { bs: 0 }], /bs/, "bs > 0");
        await rangeError(f, [...a, { lr: -1 }], /lr/, "lr >= 0");
        await rangeError(f, [[1, 2], [1, NaN], [0, 0], [0, 0], {}], /grad/, "a NaN gradient must not reach the weights");
    } },
    { name: "trains lib/nn's model like the reference (30 steps, k = 4)", points: 3, run: async (f) => {
        refRun ??= await train(reference);
        const mine = await train(f);
        let num = 0, den = 0;
        mine.weights.forEach((w, i) => { num += (w - refRun!.weights[i]!) ** 2; den += refRun!.weights[i]! ** 2; });
        const err = Math.sqrt(num / den);
        const firstLoss = mine.losses.findIndex((l, i) => !(Math.abs(l - refRun!.losses[i]!) <= 1e-6 * refRun!.losses[i]!));
        if (firstLoss >= 0) fail(`training with your step: the loss at step ${firstLoss} is ${mine.losses[firstLoss]}, the reference run's is ${refRun.losses[firstLoss]} (relative tolerance 1e-6)`, HINT);
        if (!(err <= 1e-6)) fail(`after 30 steps the weights are ${err.toExponential(2)} away from the reference run's (relative L2; tolerance 1e-6)`, HINT);
    } },
  ],
});
