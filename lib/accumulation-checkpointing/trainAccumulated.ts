/**
 * Training with gradient accumulation, compared with one big batch: the runs
 * of the chapter's "it changes training" figure.
 */
import { AdamW, backward, concatBatches, createModel, forward, mulberry32, sampleBatch, zeroGrad, type ModelConfig } from "../nn/index.js";
import { accumulateGradients } from "./accumulateGradients.js";

/**
 * How a run turns a window of micro-batches into one gradient.
 * @see Hugging Face, "Fixing Gradient Accumulation" (Oct 2024) (window tokens versus loss / K)
 */
export type AccumulationMode = "big batch" | "window tokens" | "loss / K";

/**
 * Every {@link AccumulationMode}, in the figure's order.
 * @example ACCUMULATION_MODES.length // 3
 * @see Hugging Face, "Fixing Gradient Accumulation" (Oct 2024)
 */
export const ACCUMULATION_MODES: readonly AccumulationMode[] = ["big batch", "window tokens", "loss / K"];

/**
 * Settings of {@link trainAccumulated}.
 * @see Hugging Face, "Fixing Gradient Accumulation" (Oct 2024); PyTorch torch.optim.AdamW docs (the optimizer)
 */
export interface TrainAccumulatedOptions {
  /** Model configuration (lib/nn), including its seed: every mode starts from the same weights. */
  model: ModelConfig;
  /** Token ids of the corpus. */
  tokens: Int32Array;
  /** Optimizer steps, integer >= 1. */
  steps: number;
  /** Micro-batches per window K, integer >= 1 (default 4). */
  microBatches?: number;
  /** Sequences per micro-batch (default 2). */
  batchSize?: number;
  /** Longest sequence in tokens; each sequence gets a random length in 1 … seqLen (default 16). */
  seqLen?: number;
  /** AdamW learning rate (default 1e-2). */
  lr?: number;
  /** Seed of the data sampler (default 11): every mode sees the same windows. */
  dataSeed?: number;
}

/**
 * Trains a fresh lib/nn model with AdamW for `steps` windows of K
 * variable-length micro-batches, turning each window into one gradient by
 * `mode`: "big batch" (one backward over the concatenated window), "window
 * tokens" (accumulate, each micro-batch's summed loss divided by the window's
 * token count: equal to the big batch up to float32 rounding) or "loss / K"
 * (the notes' mean of per-micro-batch means: a different gradient whenever
 * lengths differ). The reported loss is always the mean over every token of
 * the window, before the step.
 *
 * @param mode how a window becomes one gradient
 * @param o model, corpus and sizes
 * @returns the loss before each step, one per window (nats per token)
 * @throws {RangeError} `steps must be an integer >= 1, got 0` (likewise microBatches, batchSize, seqLen, lr > 0, and an unknown mode)
 * @example trainAccumulated("window tokens", {model: cfg, tokens, steps: 3}).length // 3
 * @see Hugging Face, "Fixing Gradient Accumulation" (Oct 2024); the chapter's section "It changes training"
 */
export function trainAccumulated(mode: AccumulationMode, o: TrainAccumulatedOptions): number[] {
  return [...trainAccumulatedSteps(mode, o)];
}

/**
 * The same run as {@link trainAccumulated}, one optimizer step at a time: a
 * generator that yields the loss before each step, so a page can hand control
 * back to the browser between steps (the chapter's "Train live" button).
 * Validation happens on the first `next()`.
 *
 * @param mode how a window becomes one gradient
 * @param o model, corpus and sizes (as {@link trainAccumulated})
 * @returns a generator of `steps` losses (nats per token), equal one by one to {@link trainAccumulated}'s
 * @throws {RangeError} the messages of {@link trainAccumulated}, on the first `next()`
 * @example [...trainAccumulatedSteps("big batch", {model: cfg, tokens, steps: 2})].length // 2
 * @see Hugging Face, "Fixing Gradient Accumulation" (Oct 2024); the chapter's section "It changes training"
 */
export function* trainAccumulatedSteps(mode: AccumulationMode, o: TrainAccumulatedOptions): Generator<number, void, void> {
  const { steps, microBatches = 4, batchSize = 2, seqLen = 16, lr = 1e-2, dataSeed = 11 } = o;
  if (!ACCUMULATION_MODES.includes(mode)) throw new RangeError(`mode must be one of ${ACCUMULATION_MODES.join(", ")}, got "${String(mode)}"`);
  for (const [name, v] of [["steps", steps], ["microBatches", microBatches], ["batchSize", batchSize], ["seqLen", seqLen]] as const) {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be an integer >= 1, got ${v}`);
  }
  if (!(lr > 0)) throw new RangeError(`lr must be > 0, got ${lr}`);
  const model = createModel(o.model);
  const opt = new AdamW(model.params, { lr });
  const rng = mulberry32(dataSeed);
  for (let s = 0; s < steps; s++) {
    const window = Array.from({ length: microBatches }, () => {
      const lengths = Array.from({ length: batchSize }, () => 1 + Math.floor(rng() * seqLen));
      return sampleBatch(o.tokens, { batchSize, seqLen, contextLength: o.model.contextLength, lengths }, rng);
    });
    let loss: number;
    if (mode === "big batch") {
      zeroGrad(model.params);
      const f = forward(model, concatBatches(window));
      backward(model, f);
      loss = f.loss;
    } else {
      loss = accumulateGradients(model, window, { normalization: mode === "window tokens" ? "window-tokens" : "mean-of-means" }).loss;
    }
    opt.step();
    yield loss;
  }
}
