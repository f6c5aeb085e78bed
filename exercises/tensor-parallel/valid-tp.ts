import { notImplemented } from "../harness/index.js";

/**
 * Exercise 6.3 — which tensor-parallel sizes fit a model.
 *
 * Return, ascending, every T from 1 to `maxT` (default numHeads) that
 * Megatron-LM accepts for this model today (Megatron Core ≥ 0.16, since commit
 * f7dfb99): T divides the query heads and the FFN size; the KV heads G
 * (grouped-query attention; default: numHeads) are a multiple OR a divisor of T;
 * and when T > G, the fused QKV width (numHeads + 2·G)·headDim, with
 * headDim = hiddenSize / numHeads, divides by T too (Megatron splits that fused
 * weight into T equal column blocks and all-gathers the QKV activation). The
 * hidden size itself is never split; the vocabulary is padded, never a constraint.
 * Errors (RangeError, naming the field): `numHeads must be an integer >= 1, got 0`
 * (the same for numKvHeads, hiddenSize, ffnHiddenSize); `numKvHeads (3) must divide numHeads (8)`;
 * `hiddenSize (6) must be a multiple of numHeads (4) when headDim is not given`; `maxT must be an integer >= 1, got 0`.
 * Source: Megatron-LM megatron/core/transformer/transformer_config.py and attention.py.
 * Read: the chapter's section "Which T fit a model".
 *
 * @param config numHeads, numKvHeads?, hiddenSize, ffnHiddenSize
 * @param maxT the largest T to consider (default numHeads)
 * @returns the valid T, ascending (a new array)
 * @example validTpSizes({ numHeads: 40, hiddenSize: 5120, ffnHiddenSize: 13824 }) // [1, 2, 4, 8] (Llama-2-13B)
 */
export function validTpSizes(config: { numHeads: number; numKvHeads?: number; hiddenSize: number; ffnHiddenSize: number }, maxT?: number): number[] {
  return notImplemented("6.3");
}
