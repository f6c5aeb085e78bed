import { notImplemented } from "../harness/index.js";

/**
 * Exercise 12.1 — model-FLOP utilisation (MFU) of a measured run.
 *
 * MFU is the FLOP/s the model itself needs at the measured throughput, over the peak
 * FLOP/s of all the GPUs of the run. Count the model's FLOPs per token as chapter 2
 * does (6 per parameter, forward and backward: a simplification of PaLM's count, which
 * adds attention's sequence-length terms and which the planner reports); leave out the
 * recomputed forward (that is hardware utilisation, HFU) and the attention terms.
 *
 * Errors (RangeError), naming the argument:
 * - `tokensPerSecond must be a finite number > 0, got 0` (likewise `params`, `peakFlopsPerGpu`)
 * - `numGpus must be an integer >= 1, got 1.5`
 *
 * Read: the chapter's "Model FLOP utilisation" section.
 *
 * @param tokensPerSecond measured tokens per second, all GPUs together
 * @param params the model's parameter count Ψ
 * @param numGpus GPUs of the run
 * @param peakFlopsPerGpu dense 16-bit peak of one GPU, FLOP/s
 * @returns the fraction (0.41, not 41)
 * @example modelFlopsUtilization(66523, 64862437376, 64, 989.5e12) // ≈ 0.4088 (MPT-70B on 64 H100)
 */
export function modelFlopsUtilization(tokensPerSecond: number, params: number, numGpus: number, peakFlopsPerGpu: number): number {
  return notImplemented("12.1");
}
