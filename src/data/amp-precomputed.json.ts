// Data loader (Node, build time): the amp page's results whose inputs are fixed,
// computed once by the same lib functions the page would call, so that nothing
// trains or simulates on page open (the page runs live versions on a button).
import { fp16Summary } from "../../lib/amp/deepspeedFp16Config.js";
import { DEEPSPEED_RELEASES,accumulationError, ampStep, AMP_LIVE_MODEL, caster, charLmSetup, initAmpState, SCALE_TRACE_DEMO, scaleTraceConfig, trainAmp, type AmpConfig, type AmpModel } from "../../lib/amp/index.js";

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

process.stdout.write(JSON.stringify({
  deepspeed,
  scaleTrace: { settings, steps, tokensPerStep, records: trace },
  accumulation: { ks: accKs, trials: 4, points: accumulation },
  masterWeights: { steps: 1000, update: 1e-4, withMaster: mwRun(true), withoutMaster: mwRun(false) },
}));
