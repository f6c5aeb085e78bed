/**
 * The inverse of {@link zeroModelStateBytes} in the number of ranks: how many
 * data-parallel ranks a model needs for its model states to fit one rank's memory.
 */
import { zeroModelStateBytes } from "./zeroModelStateBytes.js";

/**
 * The smallest P whose most loaded rank holds at most `bytesPerRank` of model states (2 + 2 + 12
 * bytes per parameter; stage 1 partitions the optimizer states, 2 also the gradients, 3 also the
 * parameters, each partition ⌈Ψ/P⌉ elements): with U the bytes per parameter left whole and S those
 * partitioned, P = ⌈Ψ / ⌊(bytesPerRank − U·Ψ)/S⌋⌉, since ⌈Ψ/P⌉ ≤ k exactly when P ≥ ⌈Ψ/k⌉. Null when no P
 * fits (the unpartitioned states alone, or one element of each partitioned state beside them, exceed
 * the memory; at stage 0 nothing shrinks with P). Ψ = 0 needs one rank.
 * @param numParams Ψ, a safe integer >= 0
 * @param stage 0, 1, 2 or 3
 * @param bytesPerRank memory per rank for the model states, a safe integer >= 0
 * @returns P >= 1, or null
 * @throws {RangeError} `stage must be 0, 1, 2 or 3, got 4`; `numParams must be an integer >= 0, got 1.5`; `bytesPerRank must be a safe integer >= 0, got -1`
 * @example fewestRanks(1e12, 3, 32e9) // 500: a trillion parameters' 16 TB of states over 32 GB ranks
 * @example fewestRanks(7.5e9, 1, 32e9) // 46: stage 1 keeps 4Ψ = 30 GB whole, and 12⌈Ψ/P⌉ must fit the 2 GB left
 * @example fewestRanks(7.5e9, 0, 32e9) // null: stage 0 keeps 16Ψ = 120 GB on every rank
 * @see Rajbhandari et al. 2020, *ZeRO*, §5 (memory per stage), §1 (a trillion parameters on 1024 GPUs with stage 3)
 */
export function fewestRanks(numParams: number, stage: number, bytesPerRank: number): number | null {
  if (![0, 1, 2, 3].includes(stage)) throw new RangeError(`stage must be 0, 1, 2 or 3, got ${stage}`);
  if (!Number.isSafeInteger(numParams) || numParams < 0) throw new RangeError(`numParams must be an integer >= 0, got ${numParams}`);
  if (!Number.isSafeInteger(bytesPerRank) || bytesPerRank < 0) throw new RangeError(`bytesPerRank must be a safe integer >= 0, got ${bytesPerRank}`);
  if (numParams === 0) return 1;
  // bytes per parameter of the states a stage leaves whole (U) and of those it partitions (S): Ψ = 2 over P = 2 ranks
  // holds 2U + S bytes on rank 0 (one element of each partitioned state), Ψ = 2 on one rank 2U + 2S
  const U = zeroModelStateBytes(2, 2, stage).total - zeroModelStateBytes(2, 1, stage).total / 2;
  const S = 16 - U;
  const room = bytesPerRank - U * numParams;
  if (S === 0) return room >= 0 ? 1 : null;
  const k = Math.floor(room / S); // the largest shard (elements) that fits
  if (k < 1) return null;
  return Math.ceil(numParams / Math.min(k, numParams));
}
