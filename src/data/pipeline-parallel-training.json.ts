// Data loader (Node, build time): trains lib/nn's model on one device and on p = 2 and 4
// simulated pipeline stages with GPipe, 1F1B and interleaved 1F1B (lib/pipeline-parallel),
// so the pipeline-parallel page can show that the weights agree without training on open.
import { trainPipeline, trainOneDevice, type ScheduleName } from "../../lib/pipeline-parallel/index.js";
import { createModel, corpus, DEFAULT_MODEL } from "../../lib/nn/index.js";

const m = 8, steps = 5;
const model = { ...DEFAULT_MODEL, numBlocks: 4 };
const one = trainOneDevice({ p: 1, m, steps, model });
const layers = createModel({ ...model, vocabSize: corpus().vocab.size }).layers.map((l) => l.name);
const runs = ([["gpipe", 2, 1], ["gpipe", 4, 1], ["1f1b", 2, 1], ["1f1b", 4, 1], ["interleaved", 2, 2]] as [ScheduleName, number, number][]).map(([schedule, p, v]) => {
  const r = trainPipeline(schedule, { p, m, v, steps, model });
  let maxAbsDiff = 0, differing = 0;
  r.weights.forEach((w, i) => w.forEach((x, k) => { const d = Math.abs(x - one.weights[i][k]); if (!Object.is(x, one.weights[i][k])) differing++; maxAbsDiff = Math.max(maxAbsDiff, d); }));
  return { schedule, p, v, bounds: r.bounds, losses: r.losses, maxAbsDiff, differing, peakActivations: r.peakActivations, peakActivationBytes: r.peakActivationBytes };
});
process.stdout.write(JSON.stringify({ m, steps, microBatchSize: 2, seqLen: 8, layers, parameters: one.weights.reduce((a, w) => a + w.length, 0), oneDeviceLosses: one.losses, runs }));
