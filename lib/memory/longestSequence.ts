/**
 * The inverse of {@link activationBytes}: the longest sequence whose stored
 * activations fit a budget.
 */
import { activationBytes, type ActivationOptions } from "./activationBytes.js";

/**
 * The largest sequence length s whose activations for `numLayers` layers
 * (L · {@link activationBytesPerLayer}, Korthikanti et al. 2022, Table 2, one rounding
 * at the end) take at most `budgetBytes`: a search over s, as the bytes grow
 * with s (quadratically through the attention term 5as²b unless it is recomputed).
 * @param o the layer setting without `seqLen`, and `numLayers` (L)
 * @param budgetBytes an integer in [0, 2^53)
 * @returns s, an integer >= 0 (0 when not one token fits)
 * @throws {RangeError} `budgetBytes must be a safe integer >= 0, got -1`, and as {@link activationBytes}
 * @example longestSequence({ microBatch: 1, hiddenSize: 12288, numHeads: 96, numLayers: 96, tensorParallel: 8, sequenceParallel: true, recompute: "selective" }, 80 * 2 ** 30)
 *   // 17133: 96 layers of GPT-3 175B at 34sbh/t bytes each take 85,896,364,032 bytes (<= 80 GiB) at s = 17,133, more at 17,134
 * @see Korthikanti et al. 2022, *Reducing Activation Recomputation in Large Transformer Models*, Table 2
 */
export function longestSequence(o: Omit<ActivationOptions, "seqLen"> & { numLayers: number }, budgetBytes: number): number {
  if (!Number.isSafeInteger(budgetBytes) || budgetBytes < 0) throw new RangeError(`budgetBytes must be a safe integer >= 0, got ${budgetBytes}`);
  const bytes = (seqLen: number) => activationBytes({ ...o, seqLen });
  if (bytes(1) > budgetBytes) return 0;
  let lo = 1, hi = 2;
  while (bytes(hi) <= budgetBytes) { lo = hi; hi *= 2; } // bytes(lo) <= budget < bytes(hi)
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (bytes(mid) <= budgetBytes) lo = mid; else hi = mid;
  }
  return lo;
}
