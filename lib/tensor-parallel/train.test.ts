import { describe, expect, it } from "vitest";
import { createModel, corpus, DEFAULT_MODEL } from "../nn/index.js";
import { trainTensorParallel, tensorParallelBlock } from "./train.js";
import { TpComm } from "./comm.js";

describe("trainTensorParallel", () => {
  for (const T of [2, 4]) {
    it(`T = ${T}: lib/nn's model trains to the same loss curve and weights as one device (20 AdamW steps, within 1e-4)`, () => {
      const r = trainTensorParallel({ T, steps: 20 });
      expect(r.lossSingle[19]).toBeLessThan(r.lossSingle[0] - 0.5); // it does train
      r.lossTp.forEach((l, i) => expect(Math.abs(l - r.lossSingle[i])).toBeLessThanOrEqual(1e-4));
      expect(r.maxWeightDiff).toBeLessThanOrEqual(1e-4);
      // two blocks, each one g forward and one f backward per step
      expect(r.lastStepLog.map((l) => `${l.pass}:${l.op}`).sort()).toEqual(["backward:f", "backward:f", "forward:g", "forward:g"]);
    });
  }
  it("rejects a T that does not divide the hidden width, and a non-MLP layer", () => {
    expect(() => trainTensorParallel({ T: 3, steps: 1 })).toThrow("outFeatures (32) must be divisible by T (3)");
    const m = createModel({ ...DEFAULT_MODEL, vocabSize: corpus().vocab.size });
    expect(() => tensorParallelBlock(m.layers[0], new TpComm(2))).toThrow("block must be a residual-mlp layer, got embedding");
    expect(() => trainTensorParallel({ T: 2, steps: 0 })).toThrow("steps must be an integer >= 1, got 0");
  });
});
