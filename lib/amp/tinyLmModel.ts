/**
 * The tiny LM of {@link forwardBackward} as an {@link AmpModel}, with its
 * data: everything a figure or a test needs to train it.
 */
import type { AmpModel } from "./ampStep.js";
import { markovText, sampleBatch, type Batch, type MarkovText } from "./markovText.js";
import { mulberry32 } from "../random.js";
import { forwardBackward, initTinyMlpLm, type TinyMlpLmConfig } from "./tinyMlpLm.js";

/** A ready-to-train setup. */
export interface TinyLmSetup {
  cfg: TinyMlpLmConfig;
  text: MarkovText;
  model: AmpModel<Batch>;
  /** Seeded initial weights. */
  init: Float32Array[];
  /** Batch of step i: the same for every run with this setup. */
  batch: (step: number) => Batch;
}

/**
 * Builds the tiny LM on a Markov text. Batches are pre-sampled from `seed` so
 * every precision sees the same data.
 * @param options batchSize (default 128), tokensPerStep (default 65536: the loss of a B-token micro-batch inside a 2^16-token step), steps to pre-sample (default 400), seed, vocabSize (32), embedDim (16), hidden (32)
 */
export function tinyLmSetup(options: { batchSize?: number; tokensPerStep?: number; steps?: number; seed?: number; vocabSize?: number; embedDim?: number; hidden?: number } = {}): TinyLmSetup {
  const cfg: TinyMlpLmConfig = { vocabSize: options.vocabSize ?? 32, embedDim: options.embedDim ?? 16, hidden: options.hidden ?? 32 };
  const seed = options.seed ?? 1;
  const text = markovText({ vocabSize: cfg.vocabSize, seed });
  const rng = mulberry32(seed + 1);
  const init = initTinyMlpLm(cfg, rng);
  const B = options.batchSize ?? 128;
  const N = options.tokensPerStep ?? 65536;
  const batches = Array.from({ length: options.steps ?? 400 }, () => sampleBatch(text, B, rng));
  const model: AmpModel<Batch> = {
    lossAndGrads: (weights, batch, o) => {
      const r = forwardBackward(cfg, weights, batch, { precision: o.precision, lossScale: o.lossScale, tokensPerStep: N });
      return { loss: r.loss, grads: r.grads };
    },
  };
  return { cfg, text, model, init, batch: (i) => batches[i % batches.length]! };
}
