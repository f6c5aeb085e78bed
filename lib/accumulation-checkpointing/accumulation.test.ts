import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { combineMicroBatchGradients } from "./combineMicroBatchGradients.js";
import { accumulateGradients } from "./accumulateGradients.js";
import { dataParallelAccumulate } from "./dataParallelAccumulate.js";
import { backward, concatBatches, corpus, createModel, flatGrad, forward, mulberry32, sampleBatch, zeroGrad, type Batch } from "../nn/index.js";

const { vocab, tokens } = corpus();
const cfg = { vocabSize: vocab.size, contextLength: 4, embedDim: 4, width: 16, hiddenDim: 16, numBlocks: 1, seed: 7 };

function microBatches(lengths: number[][], seed: number): Batch[] {
  const rng = mulberry32(seed);
  return lengths.map((ls) => sampleBatch(tokens, { batchSize: ls.length, seqLen: 8, contextLength: 4, lengths: ls }, rng));
}
function bigBatchGrad(batches: Batch[]): Float64Array {
  const m = createModel(cfg);
  zeroGrad(m.params);
  backward(m, forward(m, concatBatches(batches)));
  return flatGrad(m.params);
}
function maxRelDiff(a: Float64Array, b: Float64Array): number {
  let d = 0, s = 0;
  a.forEach((x, i) => { d = Math.max(d, Math.abs(x - b[i])); s = Math.max(s, Math.abs(b[i])); });
  return d / s;
}

describe("combineMicroBatchGradients", () => {
  it("combineMicroBatchGradients weights micro-batch means by their token counts (worked example)", () => {
    const micro = [{ meanGrad: [1, 0], numTokens: 1 }, { meanGrad: [4, 2], numTokens: 3 }];
    expect(combineMicroBatchGradients(micro)).toEqual([(1 * 1 + 4 * 3) / 4, (0 + 2 * 3) / 4]);
    expect(combineMicroBatchGradients(micro, "mean-of-means")).toEqual([2.5, 1]);
  });
  it("combineMicroBatchGradients(window-tokens) equals the mean of all per-token gradients (oracle), for any split", () => {
    fc.assert(fc.property(fc.array(fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 0, maxLength: 6 }), { minLength: 1, maxLength: 5 }), (groups) => {
      if (groups.every((g) => g.length === 0)) return true;
      const all = groups.flat();
      const oracle = all.reduce((a, b) => a + b, 0) / all.length;
      const micro = groups.map((g) => ({ meanGrad: [g.length ? g.reduce((a, b) => a + b, 0) / g.length : 0], numTokens: g.length }));
      return Math.abs(combineMicroBatchGradients(micro)[0] - oracle) <= 1e-12 * (1 + Math.abs(oracle));
    }), { seed: 21, numRuns: 300 });
  });
  it("combineMicroBatchGradients: both normalisations agree when every micro-batch has the same token count", () => {
    const micro = [{ meanGrad: [3], numTokens: 5 }, { meanGrad: [-1], numTokens: 5 }, { meanGrad: [7], numTokens: 5 }];
    expect(combineMicroBatchGradients(micro, "mean-of-means")[0]).toBeCloseTo(combineMicroBatchGradients(micro)[0], 12);
  });
  it("combineMicroBatchGradients skips all-padding micro-batches, and mean-of-means refuses them", () => {
    const micro = [{ meanGrad: [2], numTokens: 4 }, { meanGrad: [NaN], numTokens: 0 }];
    expect(combineMicroBatchGradients(micro)).toEqual([2]);
    expect(() => combineMicroBatchGradients(micro, "mean-of-means")).toThrow(/micro\[1\] has no tokens/);
    expect(() => combineMicroBatchGradients([{ meanGrad: [1], numTokens: 0 }])).toThrow(/the window has no tokens/);
    expect(() => combineMicroBatchGradients([])).toThrow(/at least one micro-batch/);
    expect(() => combineMicroBatchGradients([{ meanGrad: [1], numTokens: -1 }])).toThrow(/micro\[0\].numTokens must be an integer >= 0, got -1/);
  });
});

describe("accumulateGradients on the model", () => {
  it("accumulateGradients over 3 variable-length micro-batches equals one big batch of the same samples", () => {
    const mbs = microBatches([[8, 2], [1, 1], [8, 8]], 1);
    const m = createModel(cfg);
    const r = accumulateGradients(m, mbs);
    expect(r.microBatchTokens).toEqual([10, 2, 16]);
    expect(r.windowTokens).toBe(28);
    expect(maxRelDiff(flatGrad(m.params), bigBatchGrad(mbs))).toBeLessThan(1e-5); // float32 summation order only
    expect(r.loss).toBeCloseTo(forward(createModel(cfg), concatBatches(mbs)).loss, 6);
  });
  it("accumulateGradients with mean-of-means (loss / accumulation_steps) differs from the big batch when lengths vary", () => {
    const mbs = microBatches([[8, 2], [1, 1], [8, 8]], 1);
    const m = createModel(cfg);
    accumulateGradients(m, mbs, { normalization: "mean-of-means" });
    expect(maxRelDiff(flatGrad(m.params), bigBatchGrad(mbs))).toBeGreaterThan(0.05);
  });
  it("accumulateGradients with mean-of-means equals the big batch when every micro-batch has the same token count", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1000 }), (seed) => {
      const mbs = microBatches([[8, 8], [8, 8]], seed);
      const m = createModel(cfg);
      accumulateGradients(m, mbs, { normalization: "mean-of-means" });
      return maxRelDiff(flatGrad(m.params), bigBatchGrad(mbs)) < 1e-5;
    }), { seed: 8, numRuns: 50 });
  });
  it("accumulateGradients rejects an empty window and all-padding mean-of-means", () => {
    const m = createModel(cfg);
    expect(() => accumulateGradients(m, [])).toThrow(/at least one batch/);
    const mbs = microBatches([[0, 0], [3, 3]], 2);
    expect(() => accumulateGradients(m, mbs, { normalization: "mean-of-means" })).toThrow(/micro-batch 0 has no tokens/);
    expect(() => accumulateGradients(m, microBatches([[0]], 3))).toThrow(/the window has no tokens/);
  });
});

describe("dataParallelAccumulate", () => {
  it("dataParallelAccumulate with global token counts equals one big batch over every rank's samples", () => {
    const a = microBatches([[8, 1], [2, 2]], 3), b = microBatches([[8, 8], [5, 3]], 4);
    const m = createModel(cfg);
    const r = dataParallelAccumulate(m, [a, b]);
    expect(r.rankTokens).toEqual([13, 24]);
    expect(r.globalTokens).toBe(37);
    expect(maxRelDiff(r.grad, bigBatchGrad([...a, ...b]))).toBeLessThan(1e-5);
    expect(r.events.filter((e) => e.kind === "all-reduce-tokens")).toHaveLength(2);
  });
  it("dataParallelAccumulate with local token counts and DDP's mean is off when ranks hold different token counts", () => {
    const a = microBatches([[8, 1], [2, 2]], 3), b = microBatches([[8, 8], [5, 3]], 4);
    const r = dataParallelAccumulate(createModel(cfg), [a, b], "local-tokens");
    expect(maxRelDiff(r.grad, bigBatchGrad([...a, ...b]))).toBeGreaterThan(0.02);
    expect(() => dataParallelAccumulate(createModel(cfg), [])).toThrow(/at least one rank/);
  });
});
