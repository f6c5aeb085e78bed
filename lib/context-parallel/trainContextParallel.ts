/**
 * Training lib/nn's character model with its attention layer context-parallel,
 * next to the same model on one device, on the same batches.
 */
import { AdamW, corpus, createModel, forward, backward, sampleBatch, mulberry32, type ModelConfig } from "../nn/index.js";
import type { CommEvent } from "../collectives/World.js";
import { contextParallelLayer, type CpLayer, type CpLayerOptions } from "./contextParallelLayer.js";

/**
 * Options of {@link trainContextParallel}.
 * @see the sources of {@link trainContextParallel}
 */
export interface CpTrainOptions extends CpLayerOptions {
  steps: number;
  /** lib/nn model sizes except the vocabulary; `attention` is forced on (default: contextLength 8, embedDim 8, width 16, hiddenDim 32, numBlocks 1, seed 1). */
  model?: Omit<ModelConfig, "vocabSize" | "attention">;
  batchSize?: number;
  lr?: number;
  /** Seed of the batches (default 7). */
  seed?: number;
}

/**
 * What {@link trainContextParallel} returns.
 * @see the sources of {@link trainContextParallel}
 */
export interface CpTrainResult {
  lossSingle: number[];
  lossCp: number[];
  /** Largest |Δw| over every parameter after the last step. */
  maxWeightDiff: number;
  /** The last backward pass's ring messages (forward recomputation, K/V and dK/dV) and the gradient all-reduce's. */
  lastRingEvents: CommEvent[];
  lastAllReduceEvents: CommEvent[];
}

/**
 * Trains lib/nn's model with a causal self-attention layer twice with AdamW, on the same batches: on one
 * device, and with that layer context-parallel over cpSize ranks ({@link contextParallelLayer}).
 * The two runs differ only by float32 rounding (the ring merges blocks in another order, the all-reduce
 * sums in ring order); the tests require |Δloss| ≤ 1e-4 and max |Δw| ≤ 1e-4 after 8 steps.
 * @param o cpSize, layout, attention, steps, model, batchSize (default 4), lr (default 1e-2), seed
 * @returns both loss curves, the weight difference and the last step's communication
 * @throws RangeError `steps must be an integer >= 1, got 0`; from sequenceShards, e.g. `seqLen (8) must be divisible by 2·cpSize (16) for the zigzag layout`
 * @example trainContextParallel({cpSize: 2, layout: "zigzag", steps: 5}).maxWeightDiff // < 1e-5
 * @see Liu et al. 2023, *Ring Attention*, §3 (exact attention, so training matches one device); lib/nn/train.ts
 */
export function trainContextParallel(o: CpTrainOptions): CpTrainResult {
  if (!Number.isInteger(o.steps) || o.steps < 1) throw new RangeError(`steps must be an integer >= 1, got ${o.steps}`);
  const { vocab, tokens } = corpus();
  const config: ModelConfig = { vocabSize: vocab.size, ...(o.model ?? { contextLength: 8, embedDim: 8, width: 16, hiddenDim: 32, numBlocks: 1, seed: 1 }), attention: true };
  const single = createModel(config), cp = createModel(config);
  const at = cp.layers.findIndex((l) => l.kind === "self-attention");
  const layer: CpLayer = contextParallelLayer(cp.layers[at], o);
  cp.layers[at] = layer;
  const lr = o.lr ?? 1e-2;
  const opts = [new AdamW(single.params, { lr }), new AdamW(cp.params, { lr })];
  const rng = mulberry32(o.seed ?? 7);
  const lossSingle: number[] = [], lossCp: number[] = [];
  for (let step = 0; step < o.steps; step++) {
    const batch = sampleBatch(tokens, { batchSize: o.batchSize ?? 4, seqLen: config.contextLength, contextLength: config.contextLength }, rng);
    [single, cp].forEach((m, i) => {
      const f = forward(m, batch);
      backward(m, f);
      opts[i].step();
      opts[i].zeroGrad();
      (i === 0 ? lossSingle : lossCp).push(f.loss);
    });
  }
  let maxWeightDiff = 0;
  single.params.forEach((p, j) => p.data.forEach((v, k) => { maxWeightDiff = Math.max(maxWeightDiff, Math.abs(v - cp.params[j].data[k])); }));
  return { lossSingle, lossCp, maxWeightDiff, lastRingEvents: layer.lastRing?.events.slice() ?? [], lastAllReduceEvents: layer.lastGradAllReduce?.events.slice() ?? [] };
}
