import { notImplemented } from "../harness/index.js";

/** Bytes of each model state on one GPU. */
export interface ModelStates {
  parameters: number;
  gradients: number;
  optimizerStates: number;
}

/**
 * Exercise 2.2 — model-state bytes per GPU under ZeRO stages 0–3.
 *
 * What: the bytes one GPU holds for the 16-bit weights, the 16-bit gradients
 * and the fp32 optimizer states of mixed-precision training with Adam(W) in
 * the DeepSpeed/Megatron design (the chapter's "Model states: two
 * mixed-precision designs": 2 + 2 + K bytes per parameter, K = 12), when ZeRO
 * stage `zeroStage` partitions them over `numGpus` data-parallel GPUs (which
 * state each stage partitions: the same section, after the ZeRO paper §5).
 *
 * Convention: a partition is a whole number of ELEMENTS, ⌈Ψ/N⌉, each of the
 * state's bytes per element, because DeepSpeed pads the flat buffer so that
 * every rank's share is the same size (`stage_1_and_2.py`). A state that is
 * not partitioned is Ψ elements.
 *
 * Errors (RangeError, the message names the argument):
 * `params must be an integer >= 0, got -1`, `numGpus must be an integer >= 1, got 0`,
 * `zeroStage must be 0, 1, 2 or 3, got 4` (also for non-integers, NaN, Infinity and non-numbers).
 *
 * Example: 7.5e9 parameters on 64 GPUs give 120, 31.4, 16.6 and 1.9 GB
 * (10^9 bytes) in total for stages 0–3 (ZeRO Figure 1).
 *
 * @param params Ψ, a non-negative integer
 * @param numGpus N, an integer >= 1
 * @param zeroStage 0, 1, 2 or 3
 * @returns a new object: bytes per GPU of each state (integers)
 */
export function zeroModelStateBytes(params: number, numGpus: number, zeroStage: 0 | 1 | 2 | 3): ModelStates {
  return notImplemented("2.2");
}
