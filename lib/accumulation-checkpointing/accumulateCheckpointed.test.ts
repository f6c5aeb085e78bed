import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { backward, concatBatches, corpus, createModel, flatGrad, forward, mulberry32, sampleBatch, zeroGrad, type Batch } from "../nn/index.js";
import { accumulateCheckpointed } from "./accumulateCheckpointed.js";
import { ActivationStore, guardBackward } from "./ActivationStore.js";
import { checkpointedStep } from "./checkpointedStep.js";
import { layerCosts } from "./layerCosts.js";
import { relativeError } from "./relativeError.js";
import { allSegmentations } from "./segments.js";
import { simulateCheckpointing } from "./simulateCheckpointing.js";

const { tokens, vocab } = corpus();
const cfg = { vocabSize: vocab.size, contextLength: 8, embedDim: 8, width: 16, hiddenDim: 32, numBlocks: 2, seed: 3 };
const micro = (seed: number, lengths?: number[]): Batch => sampleBatch(tokens, { batchSize: 2, seqLen: 8, contextLength: 8, lengths }, mulberry32(seed));
const bitEqual = (a: Float64Array, b: Float64Array) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

describe("accumulateCheckpointed", () => {
  it("accumulateCheckpointed(model, [batch]) equals the plain forward/backward bit for bit, for every segmentation", () => {
    const model = createModel(cfg), batch = micro(1);
    zeroGrad(model.params);
    const f = forward(model, batch); backward(model, f);
    const plain = flatGrad(model.params);
    for (const segments of allSegmentations(model.layers.length)) {
      const r = accumulateCheckpointed(model, [batch], { segments });
      expect(bitEqual(flatGrad(model.params), plain), `segments [${segments}]`).toBe(true);
      expect(r.loss).toBe(f.loss);
      expect(r.windowTokens).toBe(f.tokenCount);
    }
  });

  it("accumulateCheckpointed measures the peak the simulator and checkpointedStep predict, and frees everything", () => {
    const model = createModel({ ...cfg, attention: true }), window = [micro(2), micro(3)];
    const costs = layerCosts(model.layers, window[0].rows, "fp32");
    for (const segments of allSegmentations(model.layers.length)) {
      const store = new ActivationStore("fp32");
      accumulateCheckpointed(guardBackward(model, store), window, { segments, store });
      const expected = simulateCheckpointing(costs, segments).result.peakBytes;
      expect(store.peakBytes, `segments [${segments}]`).toBe(expected);
      expect(store.peakBytes).toBe(checkpointedStep(model, window[0], { segments }).peakBytes);
      expect(store.liveBytes).toBe(0);
      expect(store.size).toBe(0);
    }
  });

  it("accumulateCheckpointed over variable-length micro-batches gives the big-batch gradient up to float32 summation order", () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 })), { minLength: 1, maxLength: 4 }),
      fc.integer({ min: 1, max: 1000 }),
      (lengths, seed) => {
        const model = createModel(cfg), window = lengths.map((l, i) => micro(seed + i, l));
        zeroGrad(model.params); backward(model, forward(model, concatBatches(window)));
        const big = flatGrad(model.params);
        const r = accumulateCheckpointed(model, window, { segments: [2, model.layers.length - 2] });
        expect(relativeError(flatGrad(model.params), big)).toBeLessThan(1e-5);
        expect(r.windowTokens).toBe(lengths.flat().reduce((a, b) => a + b, 0));
      },
    ), { numRuns: 25 });
  });

  it("accumulateCheckpointed zeroes stale gradients, skips all-padding micro-batches and rejects bad windows", () => {
    const model = createModel(cfg);
    const pad = sampleBatch(tokens, { batchSize: 2, seqLen: 8, contextLength: 8, lengths: [1, 1] }, mulberry32(9));
    pad.targets.fill(-100);
    zeroGrad(model.params); backward(model, forward(model, micro(4)));
    const ref = flatGrad(model.params);
    for (const p of model.params) p.grad.fill(7);
    accumulateCheckpointed(model, [pad, micro(4)]);
    expect(bitEqual(flatGrad(model.params), ref)).toBe(true);
    expect(() => accumulateCheckpointed(model, [])).toThrow(RangeError);
    expect(() => accumulateCheckpointed(model, [])).toThrow(/window must hold at least one micro-batch/);
    expect(() => accumulateCheckpointed(model, [pad])).toThrow(/the window has no tokens/);
    expect(() => accumulateCheckpointed(model, [micro(1)], { segments: [2, 2] })).toThrow(/segments must be positive integers summing to numLayers = 5/);
  });
});

describe("ActivationStore", () => {
  it("ActivationStore counts a kept input once while it is also a stored Saved's x, and tracks the peak", () => {
    const model = createModel(cfg), batch = micro(5), store = new ActivationStore("fp32");
    const layer = model.layers[1];
    const x = model.layers[0].forward({ data: Float32Array.from(batch.contexts), rows: batch.rows, cols: 8 }, { precision: { compute: "fp32", accumulate: "fp32" }, matmul: (a, b, s) => new Float32Array(s.M * s.N) }).y;
    store.saveInput(x, layer);
    const inBytes = batch.rows * layer.inFeatures * 4;
    expect(store.liveBytes).toBe(inBytes);
    const saved = { x, extra: [new Float32Array(3)], bytes: inBytes + 12 };
    store.save(saved);
    expect(store.liveBytes).toBe(inBytes + 12);
    store.free(x);
    expect(store.liveBytes).toBe(inBytes + 12);
    store.free(saved);
    expect(store.liveBytes).toBe(0);
    expect(store.peakBytes).toBe(inBytes + 12);
    store.resetPeak();
    expect(store.peakBytes).toBe(0);
  });

  it("ActivationStore rejects double saves and frees; guardBackward refuses tensors that are not stored", () => {
    const model = createModel(cfg), store = new ActivationStore();
    const s = { x: { data: new Float32Array(2), rows: 1, cols: 2 }, extra: [], bytes: 8 };
    store.save(s);
    expect(() => store.save(s)).toThrow(/already in the store/);
    store.free(s);
    expect(() => store.free(s)).toThrow(/free: not in the store/);
    expect(() => new ActivationStore("fp8" as never)).toThrow(/format must be fp32, fp16 or bf16/);
    const guarded = guardBackward(model, store);
    expect(guarded.params).toBe(model.params);
    expect(() => guarded.layers[1].backward(s, { data: new Float32Array(16), rows: 1, cols: 16 }, { precision: { compute: "fp32", accumulate: "fp32" }, matmul: () => new Float32Array(0) }))
      .toThrow(/layer proj: backward needs the tensors its forward saved, still in the store/);
  });
});
