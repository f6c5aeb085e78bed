// Data loader (Node, build time): the data-parallel page's training-equivalence
// table. Trains lib/data-parallel's MLP on one process and with simulated DDP on
// P ranks (fixed inputs), so the page does not train eleven runs on open.
import { mlpInit, regressionData, trainDdp, trainSingleProcess } from "../../lib/data-parallel/index.js";

const dims = { inputDim: 3, hiddenDim: 8, outputDim: 2 };
const numSamples = 48, lr = 0.2, steps = 50;
const data = regressionData(numSamples, dims.inputDim, dims.outputDim, 9);
const init = mlpInit(dims, 5);
const single = trainSingleProcess(init, data.X, data.Y, { lr, steps });
const rows = [1, 2, 3, 4, 5, 6, 7, 8, 12, 16].map((P) => {
  const d = trainDdp(init, data.X, data.Y, { lr, steps, numRanks: P });
  let worst = 0;
  for (let i = 0; i < init.params.length; i++) worst = Math.max(worst, Math.abs(d.model.params[i] - single.model.params[i]));
  return { P, equalShards: numSamples % P === 0, largestShard: Math.ceil(numSamples / P), smallestShard: Math.floor(numSamples / P), maxAbsDiff: worst, finalLoss: d.losses.at(-1) };
});

process.stdout.write(JSON.stringify({ dims, numSamples, lr, steps, singleLosses: [single.losses[0], single.losses.at(-1)], rows }));
