// Grader of the chapter's "build it" exercise: the student's accumulation +
// checkpointing step trains lib/nn's model; graded on the gradients and weights
// (against the plain and the big-batch runs) and on the measured peak of stored activations.
import { AdamW, backward, concatBatches, corpus, cpuOps, createModel, flatData, flatGrad, forward, mulberry32, sampleBatch, zeroGrad, type Batch, type Model, type ModelConfig } from "../../lib/nn/index.js";
import {
  accumulateCheckpointed as libStep, ActivationStore, guardBackward, layerCosts, relativeError, simulateCheckpointing, sqrtSegments,
} from "../../lib/accumulation-checkpointing/index.js";
import { callSafely, defineExercise, expectThrows, fail, type AnyFunction } from "../harness/index.js";
import type { accumulateCheckpointed, StepOptions, StepResult } from "./train-checkpointed.js";

type F = typeof accumulateCheckpointed;
const reference: F = (model, window, o) => libStep(model, window, o);

const { tokens, vocab } = corpus();
const CFG: ModelConfig = { vocabSize: vocab.size, contextLength: 8, embedDim: 8, width: 32, hiddenDim: 64, numBlocks: 3, seed: 7 };
const TOL = 1e-5; // relative L2 error against the big batch: float32 summation order only (the page's stated tolerance)
const SECTION = "the chapter's section \"Accumulation and checkpointing together\"";
const ops = cpuOps();

/** K micro-batches of 2 sequences × 16 positions; lengths from `rng` (1–16 real tokens per sequence) unless given. */
function window(K: number, seed: number, lengths?: number[][]): Batch[] {
  const rng = mulberry32(seed);
  return Array.from({ length: K }, (_, i) => sampleBatch(tokens, { batchSize: 2, seqLen: 16, contextLength: 8, lengths: lengths?.[i] ?? [1 + Math.floor(rng() * 16), 1 + Math.floor(rng() * 16)] }, rng));
}
const bitEqual = (a: Float64Array, b: Float64Array) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
function firstBitDifference(a: Float64Array, b: Float64Array, model: Model): string {
  let i = 0;
  while (i < a.length && Object.is(a[i], b[i])) i++;
  let k = i;
  for (const p of model.params) { if (k < p.data.length) return `${p.name}[${k}]: expected ${b[i]}, received ${a[i]}`; k -= p.data.length; }
  return `length ${a.length} vs ${b.length}`;
}

/** Runs the student's step on a guarded model with stale gradients; returns the result, the gradient and the store. */
async function step(f: F, model: Model, w: Batch[], segments: number[], label: string, hint: string): Promise<{ r: StepResult; grad: Float64Array; store: ActivationStore }> {
  for (const p of model.params) p.grad.fill(0.5); // a previous step's gradient: the step must start from zero
  const store = new ActivationStore("fp32");
  const o: StepOptions = { segments, store, ops };
  const r = await callSafely(f, [guardBackward(model, store), w, o], { hint, label, mutatesArguments: true });
  if (!r || typeof r !== "object" || typeof r.loss !== "number" || typeof r.windowTokens !== "number") fail(`${label} returned ${JSON.stringify(r)}, not {loss, windowTokens}`, hint);
  return { r, grad: flatGrad(model.params), store };
}
function plainGrad(model: Model, batch: Batch): { grad: Float64Array; loss: number; tokens: number } {
  zeroGrad(model.params);
  const f = forward(model, batch);
  backward(model, f);
  return { grad: flatGrad(model.params), loss: f.loss, tokens: f.tokenCount };
}
const tokensOf = (w: Batch[]) => w.reduce((s, b) => s + b.targets.reduce((c: number, t: number) => c + (t >= 0 ? 1 : 0), 0), 0);
const label = (w: Batch[], segments: number[]) => `accumulateCheckpointed(model, window of ${w.length} micro-batch${w.length > 1 ? "es" : ""} holding ${w.map((b) => tokensOf([b])).join(", ")} tokens, {segments: [${segments.join(", ")}]})`;

/** Bit-equality with the plain step for one micro-batch. */
async function expectPlain(f: F, cfg: ModelConfig, seed: number, segments: (n: number) => number[], hint: string): Promise<void> {
  const model = createModel(cfg), w = window(1, seed), segs = segments(model.layers.length);
  const plain = plainGrad(model, w[0]);
  const { r, grad } = await step(f, model, w, segs, label(w, segs), hint);
  if (!bitEqual(grad, plain.grad)) fail(`${label(w, segs)}: the gradient differs from the plain backward(model, forward(model, batch)) at ${firstBitDifference(grad, plain.grad, model)}`, hint);
  if (r.windowTokens !== plain.tokens) fail(`${label(w, segs)}: windowTokens ${r.windowTokens}, expected ${plain.tokens}`, hint);
  if (!(Math.abs(r.loss - plain.loss) <= 1e-12 * plain.loss)) fail(`${label(w, segs)}: loss ${r.loss}, expected ${plain.loss} (relative tolerance 1e-12)`, hint);
}

/** A RangeError whose message matches `pattern`. */
async function expectRangeError(f: F, args: Parameters<F>, pattern: RegExp, hint: string): Promise<void> {
  await expectThrows(f as AnyFunction, args as unknown[], pattern, { class: RangeError, hint, label: `accumulateCheckpointed(model, window of ${args[1].length}, {segments: [${args[2].segments.join(", ")}]})` });
}

export default defineExercise({
  id: "3.5",
  title: "build it: train with accumulation and checkpointing",
  chapter: "accumulation-checkpointing",
  file: "exercises/accumulation-checkpointing/train-checkpointed.ts",
  exportName: "accumulateCheckpointed",
  signature: "accumulateCheckpointed(model: Model, window: Batch[], o: {segments, store, ops}): {loss, windowTokens}",
  build: true,
  section: "accumulation-and-checkpointing-together",
  summary:
    "Write the step that the course's training loop calls: K micro-batches, each run with activation checkpointing through an ActivationStore, leaving the gradient of the whole window in param.grad. The grader trains lib/nn's model for 8 AdamW steps with it and compares the weights with a big-batch run (relative error 1e-5), checks that checkpointing changes no bit, and measures the peak of stored activations against the chapter's formula, byte for byte. Derivation: the section \"Accumulation and checkpointing together\".",
  reference,
  checks: [
    { name: "one micro-batch, one segment: the plain step", points: 3, run: async (f) => {
        await expectPlain(f, CFG, 1, (n) => [n], `with one micro-batch and no checkpointing the step is forward, loss, backward of the mean loss, starting from zeroed gradients: ${SECTION}`);
    } },
    { name: "checkpointing changes no bit", points: 3, run: async (f) => {
        await expectPlain(f, CFG, 2, (n) => Array(n).fill(1), `recomputing a segment from its input repeats the same arithmetic, so the gradient must not change at all: ${SECTION}`);
        await expectPlain(f, { ...CFG, attention: true }, 3, (n) => [2, n - 2], "the same with an attention block and a checkpointed first segment");
    } },
    { name: "a window equals one big batch", points: 5, run: async (f) => {
        const model = createModel(CFG), w = window(3, 4), segs = sqrtSegments(model.layers.length);
        const big = plainGrad(model, concatBatches(w));
        const { r, grad } = await step(f, model, w, segs, label(w, segs), "");
        const hint = `micro-batches of different token counts: what must each micro-batch's loss be divided by so that the sum is the big batch's gradient? (${SECTION})`;
        const err = relativeError(grad, big.grad);
        if (!(err <= TOL)) fail(`${label(w, segs)}: the gradient is ${err.toExponential(2)} away from one big batch's (relative L2 error; tolerance ${TOL})`, hint);
        if (r.windowTokens !== big.tokens) fail(`${label(w, segs)}: windowTokens ${r.windowTokens}, expected ${big.tokens}`, hint);
        if (!(Math.abs(r.loss - big.loss) <= 1e-9 * big.loss)) fail(`${label(w, segs)}: loss ${r.loss}, expected the big batch's mean loss ${big.loss} (relative tolerance 1e-9)`, hint);
    } },
    { name: "empty micro-batches and bad windows", points: 2, run: async (f) => {
        const model = createModel(CFG), n = model.layers.length, w = window(3, 5, [[4, 9], [1, 1], [16, 2]]);
        w[1].targets.fill(-100); // all padding
        const big = plainGrad(model, concatBatches(w));
        const { grad } = await step(f, model, w, [n], label(w, [n]), "an all-padding micro-batch adds no token and no gradient");
        const err = relativeError(grad, big.grad);
        if (!(err <= TOL)) fail(`${label(w, [n])} (micro-batch 2 is all padding): the gradient is ${err.toExponential(2)} away from one big batch's (tolerance ${TOL})`, "an all-padding micro-batch adds no token and no gradient");
        const store = new ActivationStore();
        const m = guardBackward(model, store);
        await expectRangeError(f, [m, [], { segments: [n], store, ops }], /micro-batch/, "a window needs at least one micro-batch (see the stub's Errors)");
        await expectRangeError(f, [m, [w[1]], { segments: [n], store: new ActivationStore(), ops }], /tokens/, "a window without tokens has no mean loss");
        await expectRangeError(f, [m, window(1, 6), { segments: [2, 2], store: new ActivationStore(), ops }], /segments/, `segments must sum to the ${n} layers`);
        await expectRangeError(f, [m, window(1, 6), { segments: [1.5, n - 1.5], store: new ActivationStore(), ops }], /segments/, "segment lengths are whole numbers of layers");
    } },
    { name: "peak of stored activations", points: 4, run: async (f) => {
        for (const cfg of [CFG, { ...CFG, attention: true }]) {
          const model = createModel(cfg), n = model.layers.length, w = window(2, 7);
          const costs = layerCosts(model.layers, w[0].rows, "fp32");
          for (const segs of [[n], sqrtSegments(n), Array(n).fill(1), [n - 1, 1]]) {
            const { store } = await step(f, model, w, segs, label(w, segs), "");
            const expected = simulateCheckpointing(costs, segs).result.peakBytes;
            if (store.peakBytes !== expected) {
              fail(`${label(w, segs)}${cfg.attention ? " (with attention)" : ""}: the store peaked at ${store.peakBytes} bytes; the chapter's formula gives ${expected} bytes for these segments`,
                store.peakBytes > expected
                  ? `more than needed: is a checkpointed segment's forward keeping its activations, or is something freed late (or never)? ${SECTION}`
                  : `less than the formula: does each checkpointed segment keep its input in the store until its recomputation? ${SECTION}`);
            }
          }
        }
    } },
    { name: "everything stored is freed", points: 1, run: async (f) => {
        const model = createModel(CFG), n = model.layers.length, w = window(2, 8), segs = sqrtSegments(n);
        const { store } = await step(f, model, w, segs, label(w, segs), "");
        if (store.size !== 0) fail(`${label(w, segs)} returned with ${store.size} entries (${store.liveBytes} bytes) still in the store`, `free each Saved after its layer's backward, and each checkpoint input once its segment is recomputed: ${SECTION}`);
    } },
    { name: "training: 8 AdamW steps equal the big-batch run", points: 6, run: async (f) => {
        const steps = 8, K = 3, rng = mulberry32(9);
        const windows = Array.from({ length: steps }, (_, s) => window(K, 100 + s + Math.floor(rng() * 1000)));
        const bigModel = createModel(CFG), bigOpt = new AdamW(bigModel.params, { lr: 1e-2 });
        const bigLosses: number[] = [];
        for (const w of windows) { zeroGrad(bigModel.params); const fw = forward(bigModel, concatBatches(w)); backward(bigModel, fw); bigLosses.push(fw.loss); bigOpt.step(); }
        const model = createModel(CFG), opt = new AdamW(model.params, { lr: 1e-2 }), n = model.layers.length, segs = sqrtSegments(n);
        const expectedPeak = simulateCheckpointing(layerCosts(model.layers, windows[0][0].rows, "fp32"), segs).result.peakBytes;
        const hint = `train: each step's gradient must be the big batch's, from zeroed gradients, with the memory contract kept (${SECTION})`;
        for (let s = 0; s < steps; s++) {
          const { r, store } = await step(f, model, windows[s], segs, `step ${s + 1} of ${steps}: ${label(windows[s], segs)}`, hint);
          if (!(Math.abs(r.loss - bigLosses[s]) <= 1e-5 * bigLosses[s])) fail(`step ${s + 1} of ${steps}: loss ${r.loss}, the big-batch run had ${bigLosses[s]} (relative tolerance 1e-5)`, hint);
          if (store.peakBytes !== expectedPeak || store.size !== 0) fail(`step ${s + 1} of ${steps}: peak ${store.peakBytes} bytes (expected ${expectedPeak}), ${store.size} entries left in the store`, hint);
          opt.step();
        }
        const err = relativeError(flatData(model.params), flatData(bigModel.params));
        if (!(err <= TOL)) fail(`after ${steps} AdamW steps the weights are ${err.toExponential(2)} away from the big-batch run's (relative L2 error; tolerance ${TOL})`, hint);
    } },
  ],
});
