// Data loader (Node, build time): the results of the accumulation-checkpointing
// page whose inputs are fixed (the three 40-step training runs, the two-rank
// data-parallel example, the reentrant run on the course model), computed by the
// same lib functions the page would call, so that nothing trains on page open.
// (The interactive cells' results at their defaults: accumulation-checkpointing-defaults.json.ts.)
import { AdamW, backward, concatBatches, createModel, flatData, flatGrad, forward, mulberry32, sampleBatch, zeroGrad, type Batch, type Model } from "../../lib/nn/index.js";
import {
  ACCUMULATION_MODES, accumulateCheckpointed, accumulateGradients, checkpointedStep, dataParallelAccumulate, relativeError, sqrtSegments, trainAccumulated,
} from "../../lib/accumulation-checkpointing/index.js";
import { readFileSync } from "node:fs";
import { parseModelConfig } from "../../lib/memory/index.js";
import { config, tokens } from "./accumulation-checkpointing-model.js";


// "It changes training": three runs from the same weights on the same windows.
const trainSteps = 40, trainWindow = 4;
const t0 = performance.now();
const runs = ACCUMULATION_MODES.map((mode) => ({ mode, losses: trainAccumulated(mode, { model: config, tokens, steps: trainSteps, microBatches: trainWindow }) }));
const msPerRun = (performance.now() - t0) / runs.length;

// "Data parallel": two ranks with very different token counts.
const dpRng = mulberry32(21);
const mkRank = (lens: number[][]) => lens.map((l) => sampleBatch(tokens, { batchSize: 2, seqLen: 16, contextLength: 8, lengths: l }, dpRng));
const ranks = [mkRank([[16, 16], [12, 16]]), mkRank([[2, 3], [1, 5]])];
const dpModel = createModel(config);
zeroGrad(dpModel.params); backward(dpModel, forward(dpModel, concatBatches(ranks.flat())));
const gDpRef = flatGrad(dpModel.params);
const dpGlobal = dataParallelAccumulate(dpModel, ranks, "global-tokens");
const dpLocal = dataParallelAccumulate(dpModel, ranks, "local-tokens");

// "The reentrant pitfall" on the course model: segments [2, 2, rest].
const reModel = createModel({ ...config, numBlocks: 3 });
const reBatch = sampleBatch(tokens, { batchSize: 4, seqLen: 16, contextLength: 8 }, mulberry32(5));
const reSegments = [2, 2, reModel.layers.length - 4];
const reRun = checkpointedStep(reModel, reBatch, { segments: reSegments, useReentrant: true });
const nonReRun = checkpointedStep(reModel, reBatch, { segments: reSegments, useReentrant: false });

// "Accumulation and checkpointing together": 8 AdamW steps of windows of 3 variable-length micro-batches,
// big batch vs accumulateCheckpointed (√n segments) vs loss / K, on a 3-block model.
const togetherConfig = { ...config, numBlocks: 3, seed: 7 };
const twRng = mulberry32(9);
const togetherWindows: Batch[][] = Array.from({ length: 8 }, () => Array.from({ length: 3 }, () =>
  sampleBatch(tokens, { batchSize: 2, seqLen: 16, contextLength: 8, lengths: [1 + Math.floor(twRng() * 16), 1 + Math.floor(twRng() * 16)] }, twRng)));
function trainWith(stepFn: (m: Model, w: Batch[]) => void): Float64Array {
  const m = createModel(togetherConfig), opt = new AdamW(m.params, { lr: 1e-2 });
  for (const w of togetherWindows) { stepFn(m, w); opt.step(); }
  return flatData(m.params);
}
const wBig = trainWith((m, w) => { zeroGrad(m.params); backward(m, forward(m, concatBatches(w))); });
const wTogether = trainWith((m, w) => { accumulateCheckpointed(m, w, { segments: sqrtSegments(m.layers.length) }); });
const wLossK = trainWith((m, w) => { accumulateGradients(m, w, { normalization: "mean-of-means" }); });

// "Other ways to save activation memory": Llama-2-7B's shipped config.json, parsed here so the page needs no validator.
const llama2_7b = parseModelConfig(readFileSync(new URL("../../lib/memory/configs/llama-2-7b.json", import.meta.url), "utf8"));

process.stdout.write(JSON.stringify({
  llama2_7b,
  together: { steps: togetherWindows.length, microBatches: 3, numBlocks: togetherConfig.numBlocks, weightError: relativeError(wTogether, wBig), lossKWeightError: relativeError(wLossK, wBig) },
  config,
  training: { steps: trainSteps, microBatches: trainWindow, msPerRun, runs },
  dataParallel: {
    rankTokens: dpGlobal.rankTokens, globalTokens: dpGlobal.globalTokens,
    errGlobal: relativeError(dpGlobal.grad, gDpRef), errLocal: relativeError(dpLocal.grad, gDpRef),
  },
  reentrant: {
    segments: reSegments, loss: reRun.loss, layersWithoutGrad: reRun.layersWithoutGrad, warnings: reRun.warnings.length,
    nonReentrantLayersWithoutGrad: nonReRun.layersWithoutGrad,
  },
}));
