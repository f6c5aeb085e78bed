import { notImplemented } from "../harness/index.js";

/**
 * Exercise 8.2 — how many ranks does a model need?
 *
 * What: the fewest data-parallel ranks P over which ZeRO stage `stage` fits
 * the model states of Ψ = `numParams` parameters in `bytesPerRank` bytes on
 * every rank: the inverse, in P, of the page's model-state count.
 * Convention: the page's "Per-rank memory over one step": mixed-precision
 * AdamW as the ZeRO paper counts it, 2 bytes of 16-bit parameters, 2 of
 * 16-bit gradients and K = 12 of optimizer states per parameter; stage 1
 * partitions the optimizer states over the P ranks, stage 2 also the
 * gradients, stage 3 also the parameters; a partitioned state holds ⌈Ψ/P⌉
 * elements on the most loaded rank (the shards of exercise 8.1), an
 * unpartitioned one Ψ. The states fit when the most loaded rank's bytes are
 * ≤ bytesPerRank (equal fits).
 * Input: numParams and bytesPerRank, safe integers >= 0; stage 0–3.
 * Output: P >= 1; null when no P fits (more ranks than Ψ do not shrink a
 * shard below one element, and stage 0 partitions nothing); 1 for Ψ = 0.
 * Errors (RangeError), in this order: `stage must be 0, 1, 2 or 3, got 4`;
 * `numParams must be an integer >= 0, got 1.5`; `bytesPerRank must be a safe
 * integer >= 0, got -1`.
 * Example: fewestRanks(1e12, 3, 32e9) → 500 (a trillion parameters' 16 TB
 * of model states over ranks of 32 GB).
 *
 * @param numParams Ψ
 * @param stage 0, 1, 2 or 3
 * @param bytesPerRank memory per rank for the model states
 * @returns the fewest ranks, or null
 * @throws {RangeError} as above
 */
export function fewestRanks(numParams: number, stage: number, bytesPerRank: number): number | null {
  return notImplemented("8.2");
}
