/**
 * The course's character-level LM (`lib/nn`, Shakespeare's sonnets) as an
 * {@link AmpModel}: the model the loss curves of the chapter are trained on.
 */
import { backward, corpus, cpuOps, createModel, DEFAULT_MODEL, forward, mulberry32, sampleBatch, zeroGrad, type Batch } from "../nn/index.js";
import type { AmpModel } from "./ampStep.js";

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
}

/**
 * Builds lib/nn's DEFAULT_MODEL on the sonnets with seeded batches.
 *
 * The backward differentiates S·lossSum/N with N = `tokensPerStep`: a batch
 * of B·L tokens standing for one micro-batch of a step over N tokens (the
 * normalisation gradient accumulation uses), which makes per-token gradients
 * as small as in a large run (Llama 2: 4M tokens per step).
 * @param options batchSize (default 8), seqLen (default 16), tokensPerStep (default B·L), steps to pre-sample (default 300), seed (default 0)
 * @throws {RangeError} `tokensPerStep must be >= the tokens of a batch (128), got 10`
 */
export function charLmSetup(options: { batchSize?: number; seqLen?: number; tokensPerStep?: number; steps?: number; seed?: number } = {}): CharLmSetup {
  const { vocab, tokens } = corpus();
  const half = createModel({ ...DEFAULT_MODEL, vocabSize: vocab.size });
  const B = options.batchSize ?? 8;
  const L = options.seqLen ?? 16;
  const N = options.tokensPerStep ?? B * L;
  if (!(N >= B * L && Number.isFinite(N))) throw new RangeError(`tokensPerStep must be >= the tokens of a batch (${B * L}), got ${N}`);
  const rng = mulberry32(options.seed ?? 0);
  const batches = Array.from({ length: options.steps ?? 300 }, () => sampleBatch(tokens, { batchSize: B, seqLen: L, contextLength: DEFAULT_MODEL.contextLength }, rng));
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
  return {
    model,
    init: half.params.map((p) => p.data.slice()),
    paramNames: half.params.map((p) => p.name),
    vocabSize: vocab.size,
    batch: (i) => batches[i % batches.length]!,
    tokensPerBatch: B * L,
  };
}
