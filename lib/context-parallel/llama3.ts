/**
 * Published figures of Llama 3 405B that this chapter checks itself against:
 * the model's attention widths and the parallel layouts of its pre-training.
 */

/**
 * One row of Llama 3's table of pre-training layouts.
 * @see the sources of {@link LLAMA3_405B_LAYOUTS}
 */
export interface Llama3Layout {
  gpus: number;
  tp: number;
  cp: number;
  pp: number;
  dp: number;
  /** Tokens per sequence. */
  seqLen: number;
  /** Sequences per data-parallel rank per step. */
  batchPerDp: number;
  /** Achieved BF16 TFLOP/s per GPU, as reported. */
  tflopsPerGpu: number;
}

/**
 * Llama 3 405B's dimensions: 126 layers, model dimension 16,384, 128 attention heads, 8 key/value heads.
 * @example LLAMA3_405B.hiddenSize / LLAMA3_405B.numHeads // 128, the head dimension
 * @see Dubey et al. 2024, *The Llama 3 Herd of Models*, Table 3
 */
export const LLAMA3_405B = Object.freeze({ numLayers: 126, hiddenSize: 16384, numHeads: 128, numKvHeads: 8 });

/**
 * The three layouts of Llama 3 405B's pre-training: 8K-token sequences on 8,192 and 16,384 GPUs without
 * context parallelism, then the long-context stage, 131,072 tokens with CP = 16. Every step holds about
 * 16M tokens (dp · batchPerDp · seqLen).
 * @example LLAMA3_405B_LAYOUTS[2].cp // 16
 * @see Dubey et al. 2024, *The Llama 3 Herd of Models*, §3.3.2 and Table 4
 */
export const LLAMA3_405B_LAYOUTS: readonly Llama3Layout[] = Object.freeze([
  { gpus: 8192, tp: 8, cp: 1, pp: 16, dp: 64, seqLen: 8192, batchPerDp: 32, tflopsPerGpu: 430 },
  { gpus: 16384, tp: 8, cp: 1, pp: 16, dp: 128, seqLen: 8192, batchPerDp: 16, tflopsPerGpu: 400 },
  { gpus: 16384, tp: 8, cp: 16, pp: 16, dp: 8, seqLen: 131072, batchPerDp: 16, tflopsPerGpu: 380 },
].map((r) => Object.freeze(r)));
