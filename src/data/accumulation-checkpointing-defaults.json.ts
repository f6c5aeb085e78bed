// Data loader (Node, build time): the results of the accumulation-checkpointing page's interactive cells at their
// inputs' default values, and those defaults (the page's inputs start from `defaults`, one source), computed by the
// same code as the page's live cells, so that opening the page runs no forward or backward pass; the page computes
// live as soon as the reader changes an input. test/accumulation-checkpointing-defaults.test.ts checks every result
// against direct lib calls with these defaults.
import { backward, concatBatches, cpuOps, createModel, flatGrad, forward, mulberry32, parameterCount, sampleBatch, zeroGrad } from "../../lib/nn/index.js";
import {
  ActivationStore, accumulateCheckpointed, accumulateGradients, checkpointedStep, guardBackward, layerCosts, relativeError, simulateCheckpointing, sqrtSegments, tradeoff,
} from "../../lib/accumulation-checkpointing/index.js";
import { config, tokens, vocab } from "./accumulation-checkpointing-model.js";

// The interactive cells at their defaults. Each function below is the page's live cell, line for line
// (src/accumulation-checkpointing.md), so the reader sees the same numbers before and after touching an input.
const defaults = {
  accumulation: { K: 3, lengthMode: "variable lengths", seed: 4 },
  checkpointing: { numBlocks: 6, format: "fp32", attention: false },
} as const;
type Format = "fp32" | "bf16";

// "Gradient accumulation": K micro-batches of 2 sequences × 16 positions; one big batch vs window tokens vs loss / K.
function accumulationRun(K: number, lengthMode: string, seed: number) {
  const accRng = mulberry32(seed);
  const micro = Array.from({ length: K }, () => {
    const lengths = lengthMode === "equal lengths" ? [16, 16] : [1 + Math.floor(accRng() * 16), 1 + Math.floor(accRng() * 16)];
    return sampleBatch(tokens, { batchSize: 2, seqLen: 16, contextLength: config.contextLength, lengths }, accRng);
  });
  const accModel = createModel(config);
  zeroGrad(accModel.params);
  const big = forward(accModel, concatBatches(micro));
  backward(accModel, big);
  const gBig = flatGrad(accModel.params);
  const right = accumulateGradients(accModel, micro);
  const gRight = flatGrad(accModel.params);
  accumulateGradients(accModel, micro, { normalization: "mean-of-means" });
  const gWrong = flatGrad(accModel.params);
  return { bigLoss: big.loss, loss: right.loss, microBatchTokens: right.microBatchTokens, windowTokens: right.windowTokens, errRight: relativeError(gRight, gBig), errWrong: relativeError(gWrong, gBig) };
}

// "Activation checkpointing": the model of the figure, its layers' costs and every segmentation's peak and recompute.
function checkpointingModel(numBlocks: number, format: Format, attention: boolean) {
  const model = createModel({ ...config, numBlocks, attention });
  const batch = sampleBatch(tokens, { batchSize: 8, seqLen: 16, contextLength: 8 }, mulberry32(3));
  const costs = layerCosts(model.layers, batch.rows, format);
  const plain = simulateCheckpointing(costs, [model.layers.length]).result;
  return {
    model, batch, costs, ops: cpuOps({ compute: format, accumulate: "fp32" }),
    shape: {
      layers: model.layers.map((l) => l.name), rows: batch.rows, sqrtSegments: sqrtSegments(model.layers.length),
      plain: { peakBytes: plain.peakBytes, forwardFlops: plain.forwardFlops }, points: tradeoff(costs),
    },
  };
}
// The plain step, the checkpointed step on `segments` (gradients compared bit for bit), and the two-micro-batch window of accumulateCheckpointed.
function checkpointingRun(ck: ReturnType<typeof checkpointingModel>, format: Format, segments: number[]) {
  const { model, batch, costs, ops } = ck;
  zeroGrad(model.params);
  const f = forward(model, batch, ops);
  backward(model, f, 1 / f.tokenCount, ops);
  const plainGrad = flatGrad(model.params);
  const run = checkpointedStep(model, batch, { segments, ops });
  const grad = flatGrad(model.params);
  const identical = grad.every((g, i) => Object.is(g, plainGrad[i]));
  const store = new ActivationStore(format);
  const w = [0, 1].map((i) => sampleBatch(tokens, { batchSize: 8, seqLen: 16, contextLength: 8, lengths: Array.from({ length: 8 }, (_, j) => 1 + ((5 * i + 3 * j) % 16)) }, mulberry32(30 + i)));
  const r = accumulateCheckpointed(guardBackward(model, store), w, { segments, store, ops });
  return {
    segments, peakBytes: run.peakBytes, recomputeFlops: run.recomputeFlops, schedule: run.schedule, identical, parameters: grad.length,
    together: { windowTokens: r.windowTokens, peak: store.peakBytes, left: store.size, formula: simulateCheckpointing(costs, segments).result.peakBytes },
  };
}
const { K, lengthMode, seed } = defaults.accumulation;
const ckDefault = checkpointingModel(defaults.checkpointing.numBlocks, defaults.checkpointing.format, defaults.checkpointing.attention);
process.stdout.write(JSON.stringify({
  config,
  // "The model": what the page's first paragraph states.
  corpus: { characters: tokens.length, vocabulary: vocab.size },
  parameters: parameterCount(createModel(config).params),
  defaults: { ...defaults, checkpointing: { ...defaults.checkpointing, segments: ckDefault.shape.sqrtSegments } },
  accumulation: accumulationRun(K, lengthMode, seed),
  checkpointing: { ...ckDefault.shape, run: checkpointingRun(ckDefault, defaults.checkpointing.format, ckDefault.shape.sqrtSegments) },
}));

