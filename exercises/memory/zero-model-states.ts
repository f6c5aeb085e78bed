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
 * Mixed-precision training with Adam(W), as in the ZeRO paper (§3.1): each
 * parameter costs 2 bytes of fp16/bf16 weight, 2 bytes of fp16/bf16 gradient
 * and K = 12 bytes of optimizer states (fp32 master weight 4, momentum 4,
 * variance 4). With N data-parallel GPUs:
 * - stage 0 keeps everything on every GPU;
 * - stage 1 partitions the optimizer states (÷ N);
 * - stage 2 also partitions the gradients;
 * - stage 3 also partitions the parameters.
 * A partitioned state is rounded UP to a whole byte (Math.ceil of bytes / N),
 * as partitions are padded. Check yourself: 7.5B parameters on 64 GPUs give
 * 120, 31.4, 16.6 and 1.9 GB (10^9 bytes) in total for stages 0–3 (ZeRO Figure 1).
 *
 * @param params Ψ, a non-negative integer
 * @param numGpus N, an integer >= 1
 * @param zeroStage 0, 1, 2 or 3
 * @returns bytes per GPU of each state (integers)
 */
export function zeroModelStateBytes(params: number, numGpus: number, zeroStage: 0 | 1 | 2 | 3): ModelStates {
  return notImplemented("2.2");
}
