import { describe, expect, it } from "vitest";
import { mlpInit, mlpLossAndGrad, regressionData } from "./mlp.js";
import { trainDdp, trainSingleProcess, shardIndices } from "./trainDataParallel.js";

const dims = { inputDim: 3, hiddenDim: 8, outputDim: 2 };

describe("mlpLossAndGrad", () => {
  it("mlpLossAndGrad's gradient matches central finite differences (oracle)", () => {
    const model = mlpInit(dims, 3);
    const { X, Y } = regressionData(5, 3, 2, 4);
    const { grad } = mlpLossAndGrad(model, X, Y);
    const h = 1e-6;
    for (let i = 0; i < model.params.length; i++) {
      const plus = model.params.slice(), minus = model.params.slice();
      plus[i] += h;
      minus[i] -= h;
      const fd = (mlpLossAndGrad({ dims, params: plus }, X, Y).loss - mlpLossAndGrad({ dims, params: minus }, X, Y).loss) / (2 * h);
      expect(Math.abs(fd - grad[i])).toBeLessThan(1e-7);
    }
  });

  it("mlpLossAndGrad rejects rows of the wrong length", () => {
    expect(() => mlpLossAndGrad(mlpInit(dims, 1), [[1, 2]], [[0, 0]])).toThrow("X[0] has length 2, expected inputDim 3");
  });
});

describe("trainDdp", () => {
  const { X, Y } = regressionData(48, 3, 2, 9);
  const init = mlpInit(dims, 5);

  it("shardIndices deals samples like DistributedSampler without shuffling", () => {
    expect(shardIndices(7, 3, 0)).toEqual([0, 3, 6]);
    expect(shardIndices(7, 3, 2)).toEqual([2, 5]);
  });

  it("trainDdp on P ranks with equal shards gives the single-process parameters on the global batch (|Δθ| ≤ 1e-6 after 50 steps)", () => {
    const single = trainSingleProcess(init, X, Y, { lr: 0.2, steps: 50 });
    expect(single.losses[49]).toBeLessThan(single.losses[0]); // it trains
    for (const P of [1, 2, 4, 8, 16]) {
      const ddp = trainDdp(init, X, Y, { lr: 0.2, steps: 50, numRanks: P });
      let worst = 0;
      for (let i = 0; i < init.params.length; i++) worst = Math.max(worst, Math.abs(ddp.model.params[i] - single.model.params[i]));
      expect(worst).toBeLessThanOrEqual(1e-6);
      // every rank holds the same parameters: the all-reduce leaves identical bits everywhere
      for (const p of ddp.rankParams) expect(p).toEqual(ddp.rankParams[0]);
    }
  });

  it("trainDdp with unequal shards (P does not divide B) weighs samples unequally and drifts from single-process training", () => {
    const single = trainSingleProcess(init, X.slice(0, 47), Y.slice(0, 47), { lr: 0.2, steps: 50 });
    const ddp = trainDdp(init, X.slice(0, 47), Y.slice(0, 47), { lr: 0.2, steps: 50, numRanks: 4 });
    let worst = 0;
    for (let i = 0; i < init.params.length; i++) worst = Math.max(worst, Math.abs(ddp.model.params[i] - single.model.params[i]));
    expect(worst).toBeGreaterThan(1e-4);
  });

  it("trainDdp rejects P = 0 and a non-positive learning rate", () => {
    expect(() => trainDdp(init, X, Y, { lr: 0.1, steps: 1, numRanks: 0 })).toThrow("numRanks must be an integer >= 1, got 0");
    expect(() => trainSingleProcess(init, X, Y, { lr: 0, steps: 1 })).toThrow("lr must be a finite number > 0, got 0");
  });
});
