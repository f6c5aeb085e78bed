// Data loader (Node, build time): trains lib/nn's character-level LM on the
// sonnets with lib/amp's ampStep in four precisions, so the amp page can draw
// the curves without training for half a minute in the browser.
import { trainAmp, gradExponentHistogram, type AmpConfig } from "../../lib/amp/index.js";
import { charLmSetup } from "../../lib/amp/charLmSetup.js";

const steps = 100; // about 3 s per run in Node: enough for fp16 without scaling to diverge and the others to converge
const tokensPerStep = 2 ** 22; // Llama 2's 4M-token batches (Touvron et al. 2023, §2.2)
const optimizer = { kind: "adamw", lr: 1e-2 } as const;
const setup = charLmSetup({ tokensPerStep, steps });

const configs: { name: string; config: AmpConfig }[] = [
  { name: "fp32", config: { precision: "fp32", lossScaling: "none", optimizer } },
  { name: "fp16, no loss scaling", config: { precision: "fp16", lossScaling: "none", optimizer } },
  { name: "fp16 + GradScaler", config: { precision: "fp16", lossScaling: "dynamic", optimizer } },
  { name: "bf16, no loss scaling", config: { precision: "bf16", lossScaling: "none", optimizer } },
];

const runs = configs.map(({ name, config }) => {
  const t0 = performance.now();
  const { records } = trainAmp(setup.model, setup.init, setup.batch, config, steps, 0);
  return {
    name,
    precision: config.precision,
    lossScaling: config.lossScaling,
    msPerStep: (performance.now() - t0) / steps,
    points: records.map((r) => ({ step: r.step, loss: r.loss, lossScale: r.lossScale, skipped: r.skipped, zeroGradFraction: r.zeroGradFraction, gradNorm: Number.isFinite(r.gradNorm) ? r.gradNorm : null })),
  };
});

// The true (fp32) gradient at initialisation, as a histogram of binary exponents.
const g0 = setup.model.lossAndGrads(setup.init, setup.batch(0), { precision: "fp32", lossScale: 1 }).grads;
const hist = gradExponentHistogram(g0);

process.stdout.write(JSON.stringify({
  model: { name: "lib/nn DEFAULT_MODEL on Shakespeare's sonnets", vocabSize: setup.vocabSize, parameters: setup.init.reduce((s, p) => s + p.length, 0), tokensPerBatch: setup.tokensPerBatch },
  steps, tokensPerStep, optimizer,
  runs,
  initialGradHistogram: hist,
}));
