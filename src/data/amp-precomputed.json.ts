// Data loader (Node, build time): the amp page's results whose inputs are fixed,
// computed once by the same lib functions the page would call, so that nothing
// trains or simulates on page open (the page runs live versions on a button).
import { fp16Summary } from "../../lib/amp/deepspeedFp16Config.js";
import { DEEPSPEED_RELEASES, compareClipOrder, gradExponentHistogram, accumulationError, ampStep, AMP_LIVE_MODEL, caster, charLmSetup, initAmpState, SCALE_TRACE_DEMO, scaleTraceConfig, trainAmp, type AmpConfig, type AmpModel } from "../../lib/amp/index.js";

// 1. The loss-scale trace at the page's default slider settings (200 steps of the live model).
const { steps, tokensPerStep, settings } = SCALE_TRACE_DEMO;
const setup = charLmSetup({ model: AMP_LIVE_MODEL, batchSize: 8, seqLen: 8, tokensPerStep, steps });
const trace = trainAmp(setup.model, setup.init, setup.batch, scaleTraceConfig(settings), steps, 0).records
  .map((r) => ({ step: r.step, loss: r.loss, lossScale: r.lossScale, skipped: r.skipped }));

// 2. fp16 vs fp32 accumulation of dot products (CPU simulation through lib/nn's matmul).
const accKs = [16, 64, 256, 1024, 4096, 16384];
const accumulation = accumulationError(accKs, { trials: 4 });

// 3. 1000 SGD steps of lr·g = 1e-4 on one weight at 1, with and without an fp32 master copy.
const mwModel: AmpModel<null> = { lossAndGrads: (_w, _b, o) => ({ loss: 0, grads: [Float32Array.of(caster(o.precision)(1e-4 * o.lossScale))] }) };
const mwRun = (masterWeights: boolean) => {
  const cfg: AmpConfig = { precision: "fp16", lossScaling: "dynamic", masterWeights, optimizer: { kind: "sgd", lr: 1 } };
  let s = initAmpState([Float32Array.of(1)], cfg);
  for (let i = 0; i < 1000; i++) s = ampStep(mwModel, s, null, cfg).state;
  return s.master[0]![0]!;
};

// 4. The notes' ZeRO-2 fp16 block (note 004), parsed for each DeepSpeed release, with the HF Trainer's --fp16 on and off:
//    the page shows these until the reader edits the config, and loads the validator (zod) only then.
const notesFp16 = { fp16: { enabled: "auto", loss_scale: 0, loss_scale_window: 100, initial_scale_power: 16, hysteresis: 2, min_loss_scale: 1e-10 } };
const deepspeed = {
  text: JSON.stringify(notesFp16, null, 2),
  byTrainerFp16: Object.fromEntries([true, false].map((fp16) => [String(fp16), DEEPSPEED_RELEASES.map((r) => fp16Summary(notesFp16, { fp16 }, r))])),
};

// 5. The live cells of the page at their inputs' default values, so that opening the page computes nothing;
//    the page computes live (same lib calls) as soon as the reader moves an input.
const LIVE = { model: AMP_LIVE_MODEL, batchSize: 8, seqLen: 8 };
const defaults = {
  loop: { precision: "fp16", lossScaling: "dynamic", log2N: 22 },
  hist: { log2S: 0, which: "activation gradients" },
  clip: { log2S: 16, maxNorm: 1 },
} as const;
const loopSetup = charLmSetup({ ...LIVE, tokensPerStep: 2 ** defaults.loop.log2N, steps: 3 });
const loopConfig: AmpConfig = { precision: defaults.loop.precision, lossScaling: defaults.loop.lossScaling, optimizer: { kind: "adamw", lr: 1e-2 } };
const loop = (() => {
  let st = initAmpState(loopSetup.init, loopConfig);
  const out = [];
  for (let i = 0; i < 3; i++) { const r = ampStep(loopSetup.model, st, loopSetup.batch(i), loopConfig); out.push(r.record); st = r.state; }
  return out;
})();
const histSetup = charLmSetup({ ...LIVE, tokensPerStep: 2 ** 22, steps: 1 });
const hist = gradExponentHistogram(histSetup.activationGrads(histSetup.init, histSetup.batch(0)), 2 ** defaults.hist.log2S);
const clipSetup = charLmSetup({ ...LIVE, steps: 1 });
const clipGrads = clipSetup.model.lossAndGrads(clipSetup.init, clipSetup.batch(0), { precision: "fp32", lossScale: 1 }).grads;
const c = compareClipOrder(clipGrads.map((g) => g.map((v) => v * 2 ** defaults.clip.log2S)), 2 ** defaults.clip.log2S, defaults.clip.maxNorm);
const live = {
  defaults,
  parameters: loopSetup.init.reduce((n, p) => n + p.length, 0),
  loop,
  hist,
  clip: { trueNorm: c.trueNorm, scaledNorm: c.scaledNorm, right: { norm: c.right.norm, clipCoef: c.right.clipCoef }, wrong: { norm: c.wrong.norm, clipCoef: c.wrong.clipCoef } },
};

process.stdout.write(JSON.stringify({
  live,
  deepspeed,
  scaleTrace: { settings, steps, tokensPerStep, records: trace },
  accumulation: { ks: accKs, trials: 4, points: accumulation },
  masterWeights: { steps: 1000, update: 1e-4, withMaster: mwRun(true), withoutMaster: mwRun(false) },
}));
