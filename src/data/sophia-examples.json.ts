// Data loader (Node, build time, a few milliseconds): the sophia page's worked examples with fixed
// inputs, computed by the same lib/sophia functions the tests check, so nothing runs on page open.
import { toyTrajectory, gnbLogitEstimate, sampleIndex, hessianSchedule, sophiagStep, hessianEma, SophiaG, Lion } from "../../lib/sophia/index.js";
import { createModel, corpus, DEFAULT_MODEL, parameterCount, mulberry32, AdamW } from "../../lib/nn/index.js";

const oneD = (() => {
  const a = 25, x0 = 1, lr = 0.1, steps = 20, l = { a, b: 0 };
  const end = (m: "newton" | "gd" | "adam") => toyTrajectory(l, m, [x0, 0], { lr: m === "newton" ? 1 : lr, steps: m === "newton" ? 1 : steps }).at(-1)!.x;
  return { a, x0, lr, steps, newton: end("newton"), gd: end("gd"), adam: end("adam") };
})();

const gnbDemo = (() => {
  const p = [0.1, 0.3, 0.6], labels = [2, 1, 2, 0], S = 2000, rng = mulberry32(12345), mean = [0, 0, 0];
  for (let i = 0; i < S; i++) gnbLogitEstimate(p, [0, 1, 2, 3].map(() => sampleIndex(p, 0, 3, rng))).forEach((v, j) => (mean[j]! += v / S));
  return { p, labels, S, est: gnbLogitEstimate(p, labels), mean };
})();

// Optimizer-state bytes on the character model, read off the optimizers' own state arrays.
const stateBytes = (() => {
  const model = createModel({ ...DEFAULT_MODEL, vocabSize: corpus().vocab.size });
  const bytes = (arrays: Float32Array[][]) => arrays.flat().reduce((a, x) => a + x.byteLength, 0);
  const adamw = new AdamW(model.params), lion = new Lion(model.params), sophia = new SophiaG(model.params);
  return {
    weights: bytes([model.params.map((p) => p.data)]),
    adamw: bytes([adamw.expAvg, adamw.expAvgSq]), lion: bytes([lion.expAvg]), sophiag: bytes([sophia.expAvg, sophia.hessian]),
  };
})();

process.stdout.write(JSON.stringify({
  stateBytes,
  oneD,
  gnbDemo,
  sched: { k: 4, steps: 10, list: hessianSchedule(10, 4) },
  demoStep: Array.from(sophiagStep([0, 0, 0], [0.5, 0.5, 0.5], [0, 0, 0], [0.5, 0, -0.1], { lr: 0.1, betas: [0.5, 0.9], rho: 1, weightDecay: 0, bs: 1 }).theta),
  demoEma: Array.from(hessianEma([1, 0], [2, -1], 0.9)),
  nParams: parameterCount(createModel({ ...DEFAULT_MODEL, vocabSize: corpus().vocab.size }).params),
}));
