/**
 * The matmul FLOPs of one transformer layer's three passes when backward is split into B and W,
 * after Qi et al. (Table 1): the times a zero-bubble schedule has to fit together.
 */

/**
 * Options of {@link zeroBubblePassFlops}.
 * @see {@link zeroBubblePassFlops}
 */
export interface PassFlopsOptions {
  /** s, tokens per sequence. */
  seqLen: number;
  /** b, sequences per micro-batch. */
  microBatch: number;
  /** h, hidden size (the MLP is 4h, as in the paper's GPT-3-like setting). */
  hiddenSize: number;
}

/**
 * Matmul FLOPs of one GPT layer's forward (F), input-gradient backward (B) and weight-gradient
 * backward (W), as Qi et al. count them: F = sbh(24h + 4s), B = sbh(24h + 8s), W = sbh·24h.
 * Every weight matmul of forward has two of the same size in backward, one in B and one in W;
 * attention's two s×s products (QKᵀ and the product with V) have no weight, so both of their
 * backward products fall in B. Hence W < F < B and B + W = 2F: W is the smaller share, more so
 * for long sequences, and ZB-H1's bubble (p − 1)(F + B − W) is more than a third of 1F1B's
 * (p − 1)(F + B + W).
 * @param o see {@link PassFlopsOptions}
 * @returns FLOPs of one layer for one micro-batch: { forward, backward, weight }
 * @throws RangeError `seqLen must be an integer >= 1, got 0` (the same for microBatch, hiddenSize)
 * @example zeroBubblePassFlops({ seqLen: 1024, microBatch: 1, hiddenSize: 2304 }) // { forward: 140,123,308,032, backward: 149,786,984,448, weight: 130,459,631,616 } (Qi's 1.5B model)
 * @see Qi et al. 2023, *Zero Bubble Pipeline Parallelism* (ICLR 2024), §2.3 and Table 1; Narayanan et al. 2021, §5.1 (forward 24bsh² + 4bs²h per layer)
 */
export function zeroBubblePassFlops(o: PassFlopsOptions): { forward: number; backward: number; weight: number } {
  for (const k of ["seqLen", "microBatch", "hiddenSize"] as const) {
    if (!Number.isSafeInteger(o[k]) || o[k] < 1) throw new RangeError(`${k} must be an integer >= 1, got ${o[k]}`);
  }
  const { seqLen: s, microBatch: b, hiddenSize: h } = o;
  const sbh = s * b * h;
  return { forward: sbh * (24 * h + 4 * s), backward: sbh * (24 * h + 8 * s), weight: sbh * 24 * h };
}
