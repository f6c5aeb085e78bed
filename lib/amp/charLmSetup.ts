/**
 * The course's character-level LM (`lib/nn`, Shakespeare's sonnets) as an
 * {@link AmpModel}: the one model the chapter trains, at lib/nn's default
 * size for the build-time loss curves and at a small size for live figures.
 */
import { backward, corpus, cpuOps, createModel, crossEntropyBackward, DEFAULT_MODEL, forward, mulberry32, sampleBatch, zeroGrad, type Batch, type ModelConfig } from "../nn/index.js";
import type { AmpModel } from "./ampStep.js";

/**
 * A small lib/nn config for figures trained live in the browser: 2 characters
 * of context, width 24, one residual block (3,555 parameters with the
 * sonnets' vocabulary); with 8 × 8-token batches an AMP step takes about
 * 3 ms on the CPU here (2.6–2.9 ms in `npm run bench -- amp`), against 17–23 ms for DEFAULT_MODEL.
 *
 * @example
 * AMP_LIVE_MODEL.contextLength; // 2
 * @see Bengio et al. 2003, A Neural Probabilistic Language Model; Karpathy's makemore (the MLP character-level language model)
 */
export const AMP_LIVE_MODEL: Omit<ModelConfig, "vocabSize"> = { contextLength: 2, embedDim: 8, width: 24, hiddenDim: 24, numBlocks: 1, seed: 1 };

/** Options of {@link charLmSetup}. */
export interface CharLmOptions {
  /** Model sizes (default lib/nn's DEFAULT_MODEL). */
  model?: Omit<ModelConfig, "vocabSize">;
  /** B, sequences per batch (default 8). */
  batchSize?: number;
  /** L, predictions per sequence (default 16). */
  seqLen?: number;
  /** N, tokens of the whole optimizer step the gradient is normalised by (default B·L). */
  tokensPerStep?: number;
  /** Batches to pre-sample (default 300); step i uses batch i mod steps. */
  steps?: number;
  /** Seed of the batch sampler (default 0). */
  seed?: number;
}

/** A ready-to-train char-LM setup. */
export interface CharLmSetup {
  model: AmpModel<Batch>;
  /** Initial weights (fp32 copies of lib/nn's seeded initialisation), in `paramNames` order. */
  init: Float32Array[];
  paramNames: string[];
  vocabSize: number;
  /** Batch of step i (pre-sampled, identical for every run). */
  batch: (step: number) => Batch;
  /** Tokens per batch (B·L). */
  tokensPerBatch: number;
  /**
   * fp32 activation gradients of loss/N for `weights` on `batch`: dlogits and
   * the gradient of every layer's input except the embedding's (token ids).
   */
  activationGrads: (weights: readonly Float32Array[], batch: Batch) => Float32Array[];
}

/**
 * Builds lib/nn's model (DEFAULT_MODEL unless `options.model`) on the sonnets
 * with seeded batches.
 *
 * The backward differentiates S·lossSum/N with N = `tokensPerStep`: a batch
 * of B·L tokens standing for one micro-batch of a step over N tokens (the
 * normalisation gradient accumulation uses), which makes per-token gradients
 * as small as in a large run (Llama 2: 4M tokens per step).
 * @param options {@link CharLmOptions}
 * @returns {@link CharLmSetup}
 * @throws {RangeError} `tokensPerStep must be >= the tokens of a batch (128), got 10`; lib/nn's messages for a bad model config
 * @example charLmSetup({ model: AMP_LIVE_MODEL, batchSize: 8, seqLen: 8 }).tokensPerBatch // 64
 * @see Micikevicius et al. 2017, Mixed Precision Training; Hugging Face blog "Fixing Gradient Accumulation" (Oct 2024: normalise by the
 *   window's token count); Touvron et al. 2023, Llama 2 (global batch of 4M tokens)
 */
export function charLmSetup(options: CharLmOptions = {}): CharLmSetup {
  const { vocab, tokens } = corpus();
  const cfg = options.model ?? DEFAULT_MODEL;
  const half = createModel({ ...cfg, vocabSize: vocab.size });
  const B = options.batchSize ?? 8;
  const L = options.seqLen ?? 16;
  const N = options.tokensPerStep ?? B * L;
  if (!(N >= B * L && Number.isFinite(N))) throw new RangeError(`tokensPerStep must be >= the tokens of a batch (${B * L}), got ${N}`);
  const rng = mulberry32(options.seed ?? 0);
  const batches = Array.from({ length: options.steps ?? 300 }, () => sampleBatch(tokens, { batchSize: B, seqLen: L, contextLength: cfg.contextLength }, rng));
  const model: AmpModel<Batch> = {
    lossAndGrads(weights, batch, o) {
      half.params.forEach((p, i) => p.data.set(weights[i]!)); // the low-precision copy
      zeroGrad(half.params);
      const ops = cpuOps({ compute: o.precision, accumulate: "fp32" });
      const f = forward(half, batch, ops);
      backward(half, f, o.lossScale / N, ops); // ∂(S·lossSum/N)/∂θ, each contribution rounded to the precision
      return { loss: f.loss, grads: half.params.map((p) => p.grad.slice()) };
    },
  };
  const activationGrads = (weights: readonly Float32Array[], batch: Batch): Float32Array[] => {
    half.params.forEach((p, i) => p.data.set(weights[i]!));
    zeroGrad(half.params);
    const ops = cpuOps();
    const f = forward(half, batch, ops);
    let d = crossEntropyBackward(f.cache.probs, f.cache.targets, vocab.size, 1 / N, "fp32"); // (N, V)
    const out = [d.data];
    for (let i = half.layers.length - 1; i >= 1; i--) { // the embedding (layer 0) has no input gradient
      d = half.layers[i]!.backward(f.cache.saved[i]!, d, ops)!;
      out.push(d.data);
    }
    zeroGrad(half.params);
    return out;
  };
  return {
    model,
    init: half.params.map((p) => p.data.slice()),
    paramNames: half.params.map((p) => p.name),
    vocabSize: vocab.size,
    batch: (i) => batches[i % batches.length]!,
    tokensPerBatch: B * L,
    activationGrads,
  };
}
