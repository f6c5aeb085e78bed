import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { allSegmentations, sqrtSegments, checkSegments } from "./segments.js";
import { simulateCheckpointing, recomputeSchedule } from "./simulateCheckpointing.js";
import { checkpointedStep } from "./checkpointedStep.js";
import { layerCosts } from "./layerCosts.js";
import { chooseSegments, tradeoff } from "./chooseSegments.js";
import { reentrantGradients } from "./reentrantGradients.js";
import { backward, corpus, cpuOps, createModel, flatGrad, forward, mulberry32, sampleBatch, zeroGrad } from "../nn/index.js";

const { vocab, tokens } = corpus();
const cfg = { vocabSize: vocab.size, contextLength: 4, embedDim: 4, width: 12, hiddenDim: 16, numBlocks: 3, seed: 5 };
const batch = sampleBatch(tokens, { batchSize: 3, seqLen: 6, contextLength: 4, lengths: [6, 4, 5] }, mulberry32(9));
const unit = { inputBytes: 1, savedBytes: 1, flops: 1 };

describe("segmentations", () => {
  it("allSegmentations(n) lists the 2^(n−1) distinct compositions of n", () => {
    expect(allSegmentations(3)).toEqual([[3], [2, 1], [1, 2], [1, 1, 1]]);
    for (const n of [1, 4, 7]) {
      const all = allSegmentations(n);
      expect(all).toHaveLength(2 ** (n - 1));
      expect(new Set(all.map((s) => s.join(","))).size).toBe(all.length);
      all.forEach((s) => checkSegments(n, s));
    }
  });
  it("sqrtSegments(n) makes about √n segments of near-equal length", () => {
    expect(sqrtSegments(16)).toEqual([4, 4, 4, 4]);
    expect(sqrtSegments(10)).toEqual([4, 3, 3]);
    expect(sqrtSegments(1)).toEqual([1]);
    expect(() => checkSegments(5, [2, 2])).toThrow(/segments must be positive integers summing to numLayers = 5, got \[2, 2\]/);
  });
});

describe("simulateCheckpointing", () => {
  it("simulateCheckpointing: no checkpointing keeps every layer's activations and recomputes nothing", () => {
    const c = { inputBytes: 1, savedBytes: 2, flops: 10 };
    expect(simulateCheckpointing([c, c, c, c], [4]).result).toEqual({ peakBytes: 8, recomputeFlops: 0, forwardFlops: 40, checkpointBytes: 0 });
    expect(simulateCheckpointing([c, c, c, c], [2, 2]).result).toEqual({ peakBytes: 5, recomputeFlops: 20, forwardFlops: 40, checkpointBytes: 1 });
  });
  it("simulateCheckpointing of 16 equal layers in √16 segments: peak 3 checkpoints + 4 layers = 7 instead of 16 (Chen et al.'s O(√n))", () => {
    const costs = new Array(16).fill(unit);
    expect(simulateCheckpointing(costs, sqrtSegments(16)).result.peakBytes).toBe(7);
    expect(simulateCheckpointing(costs, [16]).result.peakBytes).toBe(16);
    // Decreasing segments do slightly better: [6, 4, 3, 3] peaks at 6 (segment j is rebuilt while j checkpoints
    // are alive: 0 + 6, 1 + 4, 2 + 3, and forward ends with 3 + 3). 5 is impossible: it needs L_j <= 5 − j and
    // L_last <= 6 − k, which sum to at most 15 < 16 layers for every k. So the exhaustive minimum is 6.
    expect(simulateCheckpointing(costs, [6, 4, 3, 3]).result.peakBytes).toBe(6);
    expect(Math.min(...tradeoff(costs).map((p) => p.peakBytes))).toBe(6);
  });
  it("simulateCheckpointing recomputes each checkpointed layer once: recompute ≤ forward, ends with nothing alive", () => {
    fc.assert(fc.property(fc.array(fc.record({ inputBytes: fc.integer({ min: 0, max: 50 }), extra: fc.integer({ min: 0, max: 50 }), flops: fc.integer({ min: 0, max: 99 }) }), { minLength: 1, maxLength: 9 }), fc.integer(), (raw, seed) => {
      const costs = raw.map((r) => ({ inputBytes: r.inputBytes, savedBytes: r.inputBytes + r.extra, flops: r.flops }));
      const all = allSegmentations(costs.length), segs = all[Math.abs(seed) % all.length];
      const { result, events } = simulateCheckpointing(costs, segs);
      const lastLen = segs[segs.length - 1];
      const expectedRecompute = costs.slice(0, costs.length - lastLen).reduce((s, c) => s + c.flops, 0);
      return result.recomputeFlops === expectedRecompute && events[events.length - 1].bytes === 0 && result.peakBytes <= costs.reduce((s, c) => s + c.savedBytes, 0) + costs.reduce((s, c) => s + c.inputBytes, 0);
    }), { seed: 13, numRuns: 200 });
  });
  it("recomputeSchedule(4, [2, 2]) runs forward, backward of the last segment, then recompute and backward of the first", () => {
    expect(recomputeSchedule(4, [2, 2])).toEqual(["F0", "F1", "F2", "F3", "B3", "B2", "R0", "R1", "B1", "B0"]);
    expect(recomputeSchedule(3, [3])).toEqual(["F0", "F1", "F2", "B2", "B1", "B0"]);
  });
});

describe("checkpointedStep on the model", () => {
  const model = createModel(cfg);
  zeroGrad(model.params);
  const plain = forward(model, batch);
  backward(model, plain);
  const plainGrad = flatGrad(model.params);
  const n = model.layers.length;

  it("checkpointedStep gives gradients identical to the plain run for every segmentation, and the simulator's peak and recompute FLOPs", () => {
    const costs = layerCosts(model.layers, batch.rows, "fp32");
    for (const segments of allSegmentations(n)) {
      const r = checkpointedStep(model, batch, { segments });
      expect(r.loss).toBe(plain.loss);
      expect(flatGrad(model.params)).toEqual(plainGrad);
      const sim = simulateCheckpointing(costs, segments);
      expect(r.peakBytes).toBe(sim.result.peakBytes);
      expect(r.recomputeFlops).toBe(sim.result.recomputeFlops);
      expect(r.schedule).toEqual(recomputeSchedule(n, segments));
      expect(r.layersWithoutGrad).toEqual([]);
    }
  });
  it("checkpointedStep on the model with self-attention: identical gradients and the simulator's peak", () => {
    const am = createModel({ ...cfg, attention: true });
    zeroGrad(am.params); backward(am, forward(am, batch));
    const ref = flatGrad(am.params), costs = layerCosts(am.layers, batch.rows, "fp32");
    for (const segments of [[1, 1, 1, 1, 1, 1, 1], [3, 2, 2], [2, 5]]) {
      const r = checkpointedStep(am, batch, { segments });
      expect(flatGrad(am.params)).toEqual(ref);
      expect(r.peakBytes).toBe(simulateCheckpointing(costs, segments).result.peakBytes);
    }
  });
  it("checkpointedStep in bf16 also matches the plain bf16 run bit for bit", () => {
    const ops = cpuOps({ compute: "bf16", accumulate: "fp32" });
    zeroGrad(model.params); backward(model, forward(model, batch, ops), undefined, ops);
    const ref = flatGrad(model.params);
    checkpointedStep(model, batch, { segments: [2, 2, 2], ops });
    expect(flatGrad(model.params)).toEqual(ref);
  });
  it("checkpointedStep with useReentrant: the first segment's input is token ids, so its layers and the following checkpointed segments get no gradient", () => {
    const r = checkpointedStep(model, batch, { segments: [2, 2, 2], useReentrant: true });
    expect(r.layersWithoutGrad).toEqual(["emb", "proj", "blocks.0", "blocks.1"]);
    expect(r.warnings).toHaveLength(2);
    const headW = model.params.find((p) => p.name === "head.W")!;
    expect(headW.grad.some((g) => g !== 0)).toBe(true);
    // non-reentrant: every layer trains
    expect(checkpointedStep(model, batch, { segments: [2, 2, 2], useReentrant: false }).layersWithoutGrad).toEqual([]);
  });
  it("checkpointedStep agrees with reentrantGradients when every layer but the last is its own checkpoint", () => {
    for (const useReentrant of [true, false]) {
      const r = checkpointedStep(model, batch, { segments: new Array(n).fill(1), useReentrant });
      const flags = model.layers.map((l, i) => ({ name: l.name, hasParams: true, checkpoint: i < n - 1 }));
      const pred = reentrantGradients(flags, { inputRequiresGrad: false, useReentrant });
      expect(r.layersWithoutGrad).toEqual(model.layers.filter((_, i) => !pred.getsGrad[i]).map((l) => l.name));
    }
  });
});

describe("chooseSegments", () => {
  const c = { inputBytes: 1, savedBytes: 2, flops: 10 };
  it("chooseSegments picks no checkpointing when it fits, [2, 2] at 5 bytes, and throws below the minimum", () => {
    expect(chooseSegments([c, c, c, c], 8)).toEqual([4]);
    expect(chooseSegments([c, c, c, c], 5)).toEqual([2, 2]);
    // [2, 1, 1]: forward keeps 2 checkpoints + the last layer's 2 bytes = 4; rebuilding [0, 1] needs 2 + 2 = 4
    expect(simulateCheckpointing([c, c, c, c], [2, 1, 1]).result.peakBytes).toBe(4);
    expect(() => chooseSegments([c, c, c, c], 3)).toThrow(/no segmentation fits in memoryLimitBytes = 3: the smallest peak is 4 bytes/);
    expect(() => chooseSegments([c], -1)).toThrow(/memoryLimitBytes must be a number >= 0, got -1/);
  });
  it("chooseSegments: a larger budget never needs more recomputation, and the choice fits", () => {
    const model = createModel({ ...cfg, numBlocks: 5 });
    const costs = layerCosts(model.layers, 64, "fp16");
    const peaks = [...new Set(tradeoff(costs).map((p) => p.peakBytes))].sort((a, b) => a - b);
    let prev = Infinity;
    for (const limit of peaks) {
      const s = chooseSegments(costs, limit), r = simulateCheckpointing(costs, s).result;
      expect(r.peakBytes).toBeLessThanOrEqual(limit);
      expect(r.recomputeFlops).toBeLessThanOrEqual(prev);
      prev = r.recomputeFlops;
    }
    expect(prev).toBe(0);
  });
});

describe("reentrantGradients", () => {
  const L = (name: string, checkpoint: boolean) => ({ name, hasParams: true, checkpoint });
  it("reentrantGradients: the notes' example leaves layer1 and layer2 without gradients under use_reentrant=True", () => {
    const r = reentrantGradients([L("layer1", true), L("layer2", true), L("layer3", false)], { inputRequiresGrad: false, useReentrant: true });
    expect(r.getsGrad).toEqual([false, false, true]);
    expect(r.warnings).toHaveLength(2);
    expect(r.error).toBeNull();
  });
  it("reentrantGradients: use_reentrant=False, or an input that requires grad, trains every layer", () => {
    const layers = [L("layer1", true), L("layer2", true), L("layer3", false)];
    expect(reentrantGradients(layers, { inputRequiresGrad: false, useReentrant: false }).getsGrad).toEqual([true, true, true]);
    expect(reentrantGradients(layers, { inputRequiresGrad: true, useReentrant: true }).getsGrad).toEqual([true, true, true]);
  });
  it("reentrantGradients: if every layer is a reentrant checkpoint on data, backward raises", () => {
    const r = reentrantGradients([L("a", true), L("b", true)], { inputRequiresGrad: false, useReentrant: true });
    expect(r.error).toMatch(/does not require grad and does not have a grad_fn/);
    expect(r.getsGrad).toEqual([false, false]);
    expect(() => reentrantGradients([], { inputRequiresGrad: false, useReentrant: true })).toThrow(/layers must not be empty/);
  });
});
