import { describe, expect, it } from "vitest";
import { corpus } from "../nn/index.js";
import { ACCUMULATION_MODES, trainAccumulated, trainAccumulatedSteps } from "./trainAccumulated.js";

const { tokens, vocab } = corpus();
const model = { vocabSize: vocab.size, contextLength: 8, embedDim: 8, width: 16, hiddenDim: 32, numBlocks: 1, seed: 1 };
const o = { model, tokens, steps: 12 };

describe("trainAccumulated", () => {
  it("trainAccumulated('window tokens') follows the big-batch run up to float32 rounding; 'loss / K' drifts away", () => {
    const [big, window, meanOfMeans] = ACCUMULATION_MODES.map((mode) => trainAccumulated(mode, o));
    expect(big).toHaveLength(12);
    const gap = (a: number[], b: number[]) => Math.max(...a.map((x, i) => Math.abs(x - b[i])));
    // same data and weights: only the summation order differs (relative float32 error ~1e-7 per step)
    expect(gap(big, window)).toBeLessThan(1e-4);
    // the first loss is measured before any step, so it is the same for every mode …
    expect(meanOfMeans[0]).toBe(big[0]);
    // … but with variable lengths the mean of means is another gradient, and training departs from the big batch
    expect(gap(big, meanOfMeans)).toBeGreaterThan(100 * gap(big, window));
  });

  it("trainAccumulated lowers the loss (the model learns from the sonnets)", () => {
    const losses = trainAccumulated("window tokens", { ...o, steps: 30 });
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(losses.slice(-5))).toBeLessThan(mean(losses.slice(0, 5)));
  });

  it("trainAccumulated rejects bad settings with the field's name", () => {
    expect(() => trainAccumulated("window tokens", { ...o, steps: 0 })).toThrow(/steps must be an integer >= 1, got 0/);
    expect(() => trainAccumulated("window tokens", { ...o, microBatches: 1.5 })).toThrow(/microBatches must be an integer >= 1/);
    expect(() => trainAccumulated("window tokens", { ...o, lr: -1 })).toThrow(/lr must be > 0/);
    expect(() => trainAccumulated("sum" as never, o)).toThrow(/mode must be one of big batch, window tokens, loss \/ K/);
  });

  it("trainAccumulatedSteps yields, step by step, the losses of trainAccumulated, and validates on the first next()", () => {
    const steps = [...trainAccumulatedSteps("loss / K", { ...o, steps: 5 })];
    const whole = trainAccumulated("loss / K", { ...o, steps: 5 });
    expect(steps).toHaveLength(5);
    steps.forEach((l, i) => expect(Object.is(l, whole[i])).toBe(true));
    const g = trainAccumulatedSteps("window tokens", { ...o, steps: 0 });
    expect(() => g.next()).toThrow(RangeError);
  });
});
