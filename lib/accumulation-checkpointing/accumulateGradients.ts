/**
 * Gradient accumulation on the course model: K micro-batches, one optimizer step.
 */
import { backward, cpuOps, forward, zeroGrad, type Batch, type Model, type Ops } from "../nn/index.js";
import { NORMALIZATIONS, type Normalization } from "./combineMicroBatchGradients.js";

/**
 * Options of {@link accumulateGradients}.
 * @see the sources of {@link accumulateGradients}: Hugging Face, "Fixing Gradient Accumulation" (2024-10-16)
 */
export interface AccumulateOptions {
  /** Default "window-tokens" (correct for variable-length micro-batches). */
  normalization?: Normalization;
  /** Precision and matmul (default fp32 CPU). */
  ops?: Ops;
  /** Token count to normalise by instead of this window's own (data parallel: the sum over ranks). */
  normalizerTokens?: number;
}

/**
 * What {@link accumulateGradients} returns (the gradients are left in `model.params[*].grad`).
 * @see the sources of {@link accumulateGradients}: Hugging Face, "Fixing Gradient Accumulation" (2024-10-16)
 */
export interface AccumulateResult {
  /** Mean loss over all tokens of the window (what one big batch reports). */
  loss: number;
  /** Tokens per micro-batch. */
  microBatchTokens: number[];
  /** Σ of microBatchTokens. */
  windowTokens: number;
  /** The multiplier each micro-batch's summed loss was backpropagated with. */
  scales: number[];
}

/**
 * Zeroes the gradients, then runs forward and backward on each micro-batch,
 * accumulating into `param.grad` — the loop of the notes, with the right normalisation.
 *
 * window-tokens: micro-batch i backpropagates lossSum_i / N_window, where N_window
 * counts the tokens of all K micro-batches (so the loader must look at the
 * whole window before the first backward). mean-of-means: it backpropagates
 * (lossSum_i / n_i) / K — the notes' `loss / accumulation_steps`.
 *
 * @param model the model (gradients overwritten)
 * @param microBatches K >= 1 batches
 * @param o normalisation, ops, optional global token count
 * @returns the window loss, token counts and scales
 * @throws {RangeError} `microBatches must hold at least one batch`; `the window has no tokens`;
 *   `mean-of-means is undefined: micro-batch i has no tokens (0/0)`; `normalizerTokens must be an integer >= 1, got …`
 * @example
 * accumulateGradients(model, [b1, b2, b3]); // model grads = gradient of the mean loss over b1 ∪ b2 ∪ b3
 * @see Hugging Face, "Fixing Gradient Accumulation" (2024-10-16)
 */
export function accumulateGradients(model: Model, microBatches: readonly Batch[], o: AccumulateOptions = {}): AccumulateResult {
  const normalization = o.normalization ?? "window-tokens";
  const ops = o.ops ?? cpuOps();
  if (microBatches.length === 0) throw new RangeError("microBatches must hold at least one batch");
  if (!NORMALIZATIONS.includes(normalization)) throw new RangeError(`normalization must be one of ${NORMALIZATIONS.join(", ")}, got "${normalization}"`);
  const counts = microBatches.map((b) => b.targets.reduce((s, t) => s + (t >= 0 ? 1 : 0), 0));
  const windowTokens = counts.reduce((a, b) => a + b, 0);
  const normalizer = o.normalizerTokens ?? windowTokens;
  if (o.normalizerTokens !== undefined && (!Number.isInteger(normalizer) || normalizer < 1)) throw new RangeError(`normalizerTokens must be an integer >= 1, got ${normalizer}`);
  if (normalizer === 0) throw new RangeError("the window has no tokens: every micro-batch is padding");
  const K = microBatches.length;
  const scales = counts.map((n, i) => {
    if (normalization === "window-tokens") return 1 / normalizer;
    if (n === 0) throw new RangeError(`mean-of-means is undefined: micro-batch ${i} has no tokens (0/0)`);
    return 1 / (n * K);
  });
  zeroGrad(model.params);
  let lossSum = 0;
  microBatches.forEach((b, i) => {
    const f = forward(model, b, ops);
    backward(model, f, scales[i], ops);
    lossSum += f.lossSum;
  });
  return { loss: windowTokens > 0 ? lossSum / windowTokens : NaN, microBatchTokens: counts, windowTokens, scales };
}
