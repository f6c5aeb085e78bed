// The accumulation-checkpointing page shows, until the reader changes an input, the results its data loader computed
// at build time for the inputs' defaults (src/data/accumulation-checkpointing-defaults.json.ts). Those results must
// be what the lib functions give for those defaults: each is recomputed here by direct lib calls, not copied.
import { beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { backward, concatBatches, corpus, cpuOps, createModel, flatGrad, forward, mulberry32, parameterCount, sampleBatch, zeroGrad } from "../lib/nn/index.js";
import {
  ActivationStore, accumulateCheckpointed, accumulateGradients, checkpointedStep, guardBackward, layerCosts, relativeError, simulateCheckpointing, sqrtSegments, tradeoff,
} from "../lib/accumulation-checkpointing/index.js";
import { config } from "../src/data/accumulation-checkpointing-model.js";

const { tokens, vocab } = corpus();
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let out: any;
beforeAll(() => {
  out = JSON.parse(execFileSync(process.execPath, ["--import", "tsx", "src/data/accumulation-checkpointing-defaults.json.ts"], { encoding: "utf8" }));
});

describe("accumulation-checkpointing page: the build's results at the inputs' defaults equal direct lib calls", () => {
  it("the model (corpus, parameters) is the one the page's fixed runs use, and the segments text starts at √n segments of the default model", () => {
    expect(out.config).toEqual(config); // the model of accumulation-checkpointing-runs.json.ts too
    expect(out.corpus).toEqual({ characters: tokens.length, vocabulary: vocab.size });
    expect(out.parameters).toBe(parameterCount(createModel(config).params));
    const { numBlocks, attention, segments } = out.defaults.checkpointing;
    expect(segments).toEqual(sqrtSegments(createModel({ ...out.config, numBlocks, attention }).layers.length));
  });

  it("gradient accumulation: losses, token counts and both gradients' errors against one big batch", () => {
    const { K, lengthMode, seed } = out.defaults.accumulation;
    const rng = mulberry32(seed);
    const micro = Array.from({ length: K }, () => {
      const lengths = lengthMode === "equal lengths" ? [16, 16] : [1 + Math.floor(rng() * 16), 1 + Math.floor(rng() * 16)];
      return sampleBatch(tokens, { batchSize: 2, seqLen: 16, contextLength: out.config.contextLength, lengths }, rng);
    });
    const model = createModel(out.config);
    zeroGrad(model.params);
    const big = forward(model, concatBatches(micro));
    backward(model, big);
    const gBig = flatGrad(model.params);
    const right = accumulateGradients(model, micro, { normalization: "window-tokens" });
    const gRight = flatGrad(model.params);
    accumulateGradients(model, micro, { normalization: "mean-of-means" });
    const gWrong = flatGrad(model.params);
    expect(out.accumulation).toEqual({
      bigLoss: big.loss, loss: right.loss, microBatchTokens: right.microBatchTokens, windowTokens: right.windowTokens,
      errRight: relativeError(gRight, gBig), errWrong: relativeError(gWrong, gBig),
    });
    expect(out.accumulation.errWrong).toBeGreaterThan(0.01); // the page's point: loss / K is visibly off at the defaults
  });

  it("activation checkpointing: layers, every segmentation's peak and recompute, the checkpointed step and the accumulated window", () => {
    const { numBlocks, format, attention, segments } = out.defaults.checkpointing;
    const model = createModel({ ...out.config, numBlocks, attention });
    const batch = sampleBatch(tokens, { batchSize: 8, seqLen: 16, contextLength: 8 }, mulberry32(3));
    const costs = layerCosts(model.layers, batch.rows, format);
    const ops = cpuOps({ compute: format, accumulate: "fp32" });
    const ck = out.checkpointing;
    expect(ck.layers).toEqual(model.layers.map((l) => l.name));
    expect(ck.rows).toBe(batch.rows);
    expect(ck.sqrtSegments).toEqual(sqrtSegments(model.layers.length));
    const plain = simulateCheckpointing(costs, [model.layers.length]).result;
    expect(ck.plain).toEqual({ peakBytes: plain.peakBytes, forwardFlops: plain.forwardFlops });
    expect(ck.points).toEqual(tradeoff(costs));

    zeroGrad(model.params);
    const f = forward(model, batch, ops);
    backward(model, f, 1 / f.tokenCount, ops);
    const plainGrad = flatGrad(model.params);
    const run = checkpointedStep(model, batch, { segments, ops });
    const grad = flatGrad(model.params);
    expect(ck.run).toMatchObject({ segments, peakBytes: run.peakBytes, recomputeFlops: run.recomputeFlops, schedule: run.schedule, parameters: grad.length });
    expect(ck.run.identical).toBe(grad.every((g, i) => Object.is(g, plainGrad[i])));
    expect(ck.run.identical).toBe(true);

    const store = new ActivationStore(format);
    const window = [0, 1].map((i) => sampleBatch(tokens, { batchSize: 8, seqLen: 16, contextLength: 8, lengths: Array.from({ length: 8 }, (_, j) => 1 + ((5 * i + 3 * j) % 16)) }, mulberry32(30 + i)));
    const r = accumulateCheckpointed(guardBackward(model, store), window, { segments, store, ops });
    expect(ck.run.together).toEqual({ windowTokens: r.windowTokens, peak: store.peakBytes, left: store.size, formula: simulateCheckpointing(costs, segments).result.peakBytes });
  });
});
