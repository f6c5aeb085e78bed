import { notImplemented } from "../harness/index.js";

/**
 * Exercise 2.2 — the largest model whose states fit, per ZeRO stage.
 *
 * What: the largest parameter count Ψ whose model states fit in `gpuBytes`
 * bytes on each of `numGpus` data-parallel GPUs when ZeRO stage `zeroStage`
 * partitions them: the inverse of the page's count of model states.
 * Model states: 16-bit weights, 16-bit gradients and fp32 optimizer states
 * of mixed-precision Adam(W) in the DeepSpeed/Megatron design, 2 + 2 + K
 * bytes per parameter with K = 12; stage 1 partitions the optimizer states,
 * stage 2 also the gradients, stage 3 also the weights (the page's "Model
 * states: two mixed-precision designs", after the ZeRO paper §5).
 * Convention: a partition is a whole number of ELEMENTS, ⌈Ψ/N⌉, because
 * DeepSpeed pads the flat buffer so that every rank's share is the same size
 * (`stage_1_and_2.py`); a state that is not partitioned is Ψ elements. The
 * states fit when their bytes are ≤ gpuBytes (equal fits).
 * Input: numGpus N, an integer in [1, 65536]; zeroStage 0–3; gpuBytes, an
 * integer in [0, 2^40] (so that the answer, up to 2^52, is an exact integer).
 * Output: Ψ, an integer >= 0 (0 when not even one parameter fits).
 * Errors (RangeError, the message names the argument):
 * `numGpus must be an integer in [1, 65536], got 0`, `zeroStage must be 0, 1,
 * 2 or 3, got 4`, `gpuBytes must be an integer in [0, 2^40], got -1`.
 * Example: largestModel(64, 3, 32e9) → 128,000,000,000, the ZeRO paper's
 * Table 2 ("128B" for P_os+g+p on 64 GPUs of 32 GB).
 *
 * @param numGpus N, the data-parallel GPUs
 * @param zeroStage 0, 1, 2 or 3
 * @param gpuBytes bytes per GPU for the model states
 * @returns the largest Ψ that fits
 */
export function largestModel(numGpus: number, zeroStage: 0 | 1 | 2 | 3, gpuBytes: number): number {
  return notImplemented("2.2");
}
