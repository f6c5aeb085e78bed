import { describe, expect, it } from "vitest";
import { train, corpus } from "./train.js";
import { SGD } from "./SGD.js";
import { createModel, forward, backward } from "./model.js";
import { sampleBatch } from "./sampler.js";
import { mulberry32 } from "../random.js";

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe("train", () => {
  it("train({ steps: 150 }) with AdamW lowers the loss on the sonnets below the unigram entropy", () => {
    const { losses, vocab } = train({ steps: 150 });
    const { tokens } = corpus();
    const counts = new Array(vocab.size).fill(0);
    tokens.forEach((t) => counts[t]++);
    const unigram = -counts.reduce((s, c) => (c ? s + (c / tokens.length) * Math.log(c / tokens.length) : s), 0);
    expect(mean(losses.slice(0, 10))).toBeGreaterThan(Math.log(vocab.size) - 0.5);
    expect(mean(losses.slice(-20))).toBeLessThan(unigram); // it learned more than character frequencies
  });
  it("train is deterministic for fixed seeds", () => {
    expect(train({ steps: 5 }).losses).toEqual(train({ steps: 5 }).losses);
    expect(() => train({ steps: 0 })).toThrow(/steps must be an integer >= 1, got 0/);
  });
  it("SGD with momentum also trains the model", () => {
    const { vocab, tokens } = corpus();
    const m = createModel({ vocabSize: vocab.size, contextLength: 4, embedDim: 8, width: 32, hiddenDim: 32, numBlocks: 1, seed: 2 });
    const opt = new SGD(m.params, { lr: 0.1, momentum: 0.9 });
    const rng = mulberry32(4), losses: number[] = [];
    for (let s = 0; s < 100; s++) {
      const b = sampleBatch(tokens, { batchSize: 8, seqLen: 8, contextLength: 4 }, rng);
      opt.zeroGrad(); const f = forward(m, b); backward(m, f); opt.step(); losses.push(f.loss);
    }
    expect(mean(losses.slice(-20))).toBeLessThan(mean(losses.slice(0, 10)) - 0.8);
  });
});
