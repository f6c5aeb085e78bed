import { notImplemented } from "../harness/index.js";

/**
 * Exercise 6.3 — which tensor-parallel sizes fit a model.
 *
 * Return, ascending, every T from 1 to `maxT` (default numHeads) that
 * Megatron-LM accepts for this model: T divides the query heads, the hidden
 * size and the FFN size, and the KV heads (grouped-query attention; default:
 * numHeads) are a multiple OR a divisor of T (Megatron replicates a KV head
 * on T/G ranks when T > G). The vocabulary is padded, never a constraint.
 * Errors (RangeError, naming the field): `numHeads must be an integer >= 1, got 0`
 * (the same for numKvHeads, hiddenSize, ffnHiddenSize); `maxT must be an integer >= 1, got 0`.
 * Source: Megatron-LM megatron/core/transformer/transformer_config.py.
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
