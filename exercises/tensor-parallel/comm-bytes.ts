import { notImplemented } from "../harness/index.js";

/**
 * Exercise 6.2 — tensor-parallel bytes per layer.
 *
 * One transformer layer (attention and MLP: two tensor-parallel regions) runs
 * on T ranks with an activation of N = s·b tokens × h features. Return the bytes
 * ONE rank sends per training step (forward and backward separately), for ring
 * collectives that move (T−1)/T of the tensor per rank for an all-gather or a
 * reduce-scatter and 2(T−1)/T for an all-reduce.
 *
 * Without sequence parallelism, Megatron-LM's f and g (Shoeybi et al. 2019 §3).
 * With sequence parallelism (Korthikanti et al. 2022 §4.2.2), as Megatron-LM
 * implements it: the column-parallel layer keeps its input sharded and gathers
 * it again in backward for the weight gradient.
 * T = 1 sends nothing. `bytesPerElement` defaults to 2 (bf16).
 * Errors (RangeError): `tokens must be an integer >= 1, got 0` (the same for
 * hiddenSize and T); `tokens (3) must be divisible by T (2) with sequence parallelism`.
 * Read: the chapter's section "Communication per layer".
 *
 * @param o tokens N, hiddenSize h, T, sequenceParallel (default false), bytesPerElement (default 2)
 * @returns bytes sent by one rank in the forward and in the backward pass
 * @example tpBytesPerRank({ tokens: 4, hiddenSize: 2, T: 2, bytesPerElement: 4 }) // { forward: 64, backward: 64 }
 */
export function tpBytesPerRank(o: { tokens: number; hiddenSize: number; T: number; sequenceParallel?: boolean; bytesPerElement?: number }): { forward: number; backward: number } {
  return notImplemented("6.2");
}
