import { notImplemented } from "../harness/index.js";

/**
 * Exercise 8.2 — model-state bytes per rank, per stage.
 *
 * Mixed-precision AdamW as the ZeRO paper counts it: 16-bit parameters (2 bytes
 * each), 16-bit gradients (2 bytes), and K = 12 bytes of optimizer state (fp32
 * master copy, momentum, variance). Stage 1 partitions the optimizer states over
 * the P ranks, stage 2 also the gradients, stage 3 also the parameters; stage 0
 * partitions nothing. Return the bytes on the most loaded rank: a partitioned
 * state holds ⌈Ψ/P⌉ elements there (the shards of exercise 8.1), an unpartitioned one Ψ.
 *
 * Errors (RangeError), in this order: `numRanks must be an integer >= 1, got 0`;
 * `stage must be 0, 1, 2 or 3, got 4`; `numParams must be an integer >= 0, got 1.5`.
 * Read: the page's section "Per-rank memory over one step".
 *
 * @param numParams Ψ
 * @param numRanks P
 * @param stage 0, 1, 2 or 3
 * @returns `{params, grads, optimizerStates, total}` in bytes
 * @example modelStateBytes(10, 4, 2) // { params: 20, grads: 6, optimizerStates: 36, total: 62 }
 */
export function modelStateBytes(numParams: number, numRanks: number, stage: number): { params: number; grads: number; optimizerStates: number; total: number } {
  return notImplemented("8.2");
}
