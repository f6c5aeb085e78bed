/**
 * How the gradients of K micro-batches combine into the gradient of the
 * accumulation window, for the two normalisations trainers have used.
 */

/**
 * How each micro-batch's loss is normalised before backward.
 * @see the sources of {@link NORMALIZATIONS}: Hugging Face, "Fixing Gradient Accumulation" (Oct 2024)
 */
export type Normalization =
  /** Divide every micro-batch's summed loss by the token count of the whole window (correct; the default). */
  | "window-tokens"
  /** Take each micro-batch's mean loss and divide it by K (the notes' `loss / accumulation_steps`; wrong with variable lengths). */
  | "mean-of-means";

/**
 * Every normalisation, for menus.
 * @example NORMALIZATIONS.includes("window-tokens") // true
 * @see Hugging Face, "Fixing Gradient Accumulation" (Oct 2024)
 */
export const NORMALIZATIONS: readonly Normalization[] = ["window-tokens", "mean-of-means"];

/**
 * One micro-batch as a trainer sees it: its mean gradient over its tokens, and how many tokens it had.
 * @see the sources of {@link NORMALIZATIONS}: Hugging Face, "Fixing Gradient Accumulation" (Oct 2024)
 */
export interface MicroBatchGradient {
  /** ∂(mean loss over this micro-batch's tokens)/∂θ, P numbers (ignored when numTokens = 0). */
  meanGrad: number[];
  /** Tokens (non-padding targets) in the micro-batch, an integer >= 0. */
  numTokens: number;
}

/**
 * The window gradient from per-micro-batch mean gradients.
 *
 * window-tokens: g = Σ_i n_i·ḡ_i / Σ_i n_i — the gradient of the mean loss over
 * every token of the window, i.e. exactly what one big batch gives.
 * mean-of-means: g = (1/K)·Σ_i ḡ_i — equal to the above only when all n_i are equal.
 * Micro-batches with n_i = 0 (all padding) contribute nothing to window-tokens;
 * under mean-of-means their mean is 0/0 and the call throws.
 *
 * @param micro K >= 1 micro-batches, all meanGrad of the same length P
 * @param normalization "window-tokens" (default) or "mean-of-means"
 * @returns the window gradient, P numbers
 * @throws {RangeError} `micro must hold at least one micro-batch`; `micro[i].numTokens must be an integer >= 0, got …`;
 *   `micro[i].meanGrad must have P = … numbers, got …`; `the window has no tokens: every micro-batch is padding`;
 *   `mean-of-means is undefined: micro[i] has no tokens (0/0)`
 * @example
 * combineMicroBatchGradients([{ meanGrad: [1], numTokens: 1 }, { meanGrad: [4], numTokens: 3 }]); // [3.25] = (1·1 + 4·3)/4
 * combineMicroBatchGradients([{ meanGrad: [1], numTokens: 1 }, { meanGrad: [4], numTokens: 3 }], "mean-of-means"); // [2.5]
 * @see Hugging Face, "Fixing Gradient Accumulation" (Oct 2024); Unsloth, "Bug Fixes in LLM Training — Gradient Accumulation" (Oct 2024)
 */
export function combineMicroBatchGradients(micro: readonly MicroBatchGradient[], normalization: Normalization = "window-tokens"): number[] {
  if (!Array.isArray(micro) || micro.length === 0) throw new RangeError("micro must hold at least one micro-batch");
  if (!NORMALIZATIONS.includes(normalization)) throw new RangeError(`normalization must be one of ${NORMALIZATIONS.join(", ")}, got "${normalization}"`);
  const P = micro[0].meanGrad.length;
  micro.forEach((m, i) => {
    if (!Number.isInteger(m.numTokens) || m.numTokens < 0) throw new RangeError(`micro[${i}].numTokens must be an integer >= 0, got ${m.numTokens}`);
    if (m.meanGrad.length !== P) throw new RangeError(`micro[${i}].meanGrad must have P = ${P} numbers, got ${m.meanGrad.length}`);
  });
  const total = micro.reduce((s, m) => s + m.numTokens, 0);
  const g = new Array<number>(P).fill(0);
  if (normalization === "window-tokens") {
    if (total === 0) throw new RangeError("the window has no tokens: every micro-batch is padding");
    for (const m of micro) if (m.numTokens > 0) for (let p = 0; p < P; p++) g[p] += (m.numTokens / total) * m.meanGrad[p];
  } else {
    micro.forEach((m, i) => { if (m.numTokens === 0) throw new RangeError(`mean-of-means is undefined: micro[${i}] has no tokens (0/0)`); });
    for (const m of micro) for (let p = 0; p < P; p++) g[p] += m.meanGrad[p] / micro.length;
  }
  return g;
}
