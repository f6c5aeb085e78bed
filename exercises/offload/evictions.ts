import { notImplemented } from "../harness/index.js";

/**
 * Exercise 9.4 — which chunks Gemini's `auto` policy evicts before an operator runs.
 *
 * Chunks `onGpu` are on the GPU; the operator needs the chunks `need` (some may still be on the CPU).
 * Every chunk takes `chunkBytes`. If all chunks on the GPU plus the missing needed ones exceed
 * `budgetBytes` (what the warm-up statistics leave for model data), evict chunks that this operator
 * does not need, the one whose next use (`nextUse[k]`, in operators from now) is farthest first,
 * the higher index first on a tie, until the excess is freed, and return them in that order.
 * Nothing to evict: return []. If evicting every chunk that may go is not enough, throw.
 *
 * Errors (RangeError): `Adjust layout failed: need 3 chunks (6144 bytes), budget 4000 bytes` (the needed
 * chunks, their bytes, the budget); `chunkBytes must be a number > 0, got 0`.
 * Read: the chapter's section "Warm-up statistics and placement".
 *
 * @param x onGpu and need (chunk indices), nextUse (per chunk index), chunkBytes (> 0), budgetBytes
 * @returns the chunks to evict, in order (a new array)
 * @example chooseEvictions({ onGpu: [0, 1, 2], need: [3], nextUse: [5, 1, 3, 2], chunkBytes: 10, budgetBytes: 30 }) // [0]
 */
export function chooseEvictions(x: { onGpu: number[]; need: number[]; nextUse: number[]; chunkBytes: number; budgetBytes: number }): number[] {
  return notImplemented("9.4");
}
