/**
 * A small training loop for the course model on the shipped text.
 */
import { SONNETS } from "./data/sonnets.js";
import { buildVocab, type Vocab } from "./buildVocab.js";
import { createModel, forward, backward, type Model, type ModelConfig } from "./model.js";
import { sampleBatch } from "./sampler.js";
import { mulberry32 } from "../random.js";
import { cpuOps } from "./ops.js";
import { AdamW, type AdamWOptions } from "./AdamW.js";
import type { Ops } from "./types.js";
import type { MoeLayer, MoeStats } from "./moeLayer.js";

/**
 * The default model size used by the chapters (small enough to train in a browser tab): 8 characters of
 * context, 8-wide embeddings, width 32, two residual blocks of hidden width 64, seed 1.
 *
 * @example
 * createModel({ ...DEFAULT_MODEL, vocabSize: corpus().vocab.size }).layers.length; // 5 (emb, proj, 2 blocks, head)
 * @see Bengio et al. 2003, A Neural Probabilistic Language Model; Karpathy's makemore (the MLP character-level language model)
 */
export const DEFAULT_MODEL: Omit<ModelConfig, "vocabSize"> = { contextLength: 8, embedDim: 8, width: 32, hiddenDim: 64, numBlocks: 2, seed: 1 };

/**
 * The shipped text, its vocabulary and its encoding.
 *
 * @returns text (Shakespeare's sonnets), vocab and tokens
 * @example
 * const { vocab, tokens } = corpus(); vocab.size; // the distinct characters of the sonnets
 * @see nanoGPT `data/shakespeare_char/prepare.py` (character-level vocabulary of a Shakespeare text)
 */
export function corpus(): { text: string; vocab: Vocab; tokens: Int32Array } {
  const vocab = buildVocab(SONNETS);
  return { text: SONNETS, vocab, tokens: vocab.encode(SONNETS) };
}

/** Options of {@link train}. */
export interface TrainOptions {
  /** Optimizer steps (integer >= 1). */
  steps: number;
  /** Sequences per step (default 8). */
  batchSize?: number;
  /** Positions per sequence (default 16). */
  seqLen?: number;
  /** Seed of the batch sampler (default 0). */
  dataSeed?: number;
  /** Model sizes (default {@link DEFAULT_MODEL}). */
  model?: Partial<Omit<ModelConfig, "vocabSize">>;
  /** AdamW hyperparameters (default lr 1e-2, otherwise PyTorch's defaults). */
  adamw?: AdamWOptions;
  /** Precision and matmul (default fp32 CPU). */
  ops?: Ops;
}

/**
 * Trains a fresh model with AdamW on random windows of the sonnets.
 *
 * @param o steps, sizes, seeds and precision
 * With MoE blocks (`model.moe`), the loss is the cross-entropy only; the auxiliary losses' gradients join in
 * backward, each block's DeepSeek-V3 bias is updated after each step (when `biasUpdateRate` > 0), and
 * `moeStats[step][block]` keeps every block's router statistics.
 *
 * @returns the trained model, the mean training loss at every step (nats per character), and the MoE blocks' statistics per step (empty lists without experts)
 * @throws {RangeError} `steps must be an integer >= 1, got 0`
 * @example
 * const { losses } = train({ steps: 150 }); // falls below the unigram entropy of the text (train.test.ts)
 * @see nanoGPT `train.py` (the zero_grad / forward / backward / step loop); PyTorch torch.optim.AdamW docs;
 *   Loshchilov & Hutter 2019, Decoupled Weight Decay Regularization
 */
export function train(o: TrainOptions): { model: Model; losses: number[]; vocab: Vocab; moeStats: MoeStats[][] } {
  if (!Number.isInteger(o.steps) || o.steps < 1) throw new RangeError(`steps must be an integer >= 1, got ${o.steps}`);
  const { vocab, tokens } = corpus();
  const cfg = { ...DEFAULT_MODEL, ...o.model, vocabSize: vocab.size };
  const model = createModel(cfg);
  const opt = new AdamW(model.params, { lr: 1e-2, ...o.adamw });
  const rng = mulberry32(o.dataSeed ?? 0);
  const ops = o.ops ?? cpuOps();
  const losses: number[] = [], moeStats: MoeStats[][] = [];
  for (let s = 0; s < o.steps; s++) {
    const batch = sampleBatch(tokens, { batchSize: o.batchSize ?? 8, seqLen: o.seqLen ?? 16, contextLength: cfg.contextLength }, rng);
    opt.zeroGrad();
    const f = forward(model, batch, ops);
    backward(model, f, 1 / f.tokenCount, ops);
    opt.step();
    losses.push(f.loss);
    const stats: MoeStats[] = [];
    model.layers.forEach((l, i) => {
      const m = f.cache.saved[i].moe;
      if (l.kind === "moe" && m) { (l as MoeLayer).updateExpertBias(m.stats.routedPerExpert); stats.push(m.stats); }
    });
    moeStats.push(stats);
  }
  return { model, losses, vocab, moeStats };
}
