/**
 * Model-state bytes per rank under each ZeRO stage, in mixed precision.
 */
import { checkNumRanks } from "../collectives/index.js";
import { checkStage } from "./validateZeroOptions.js";

/** Bytes on the most loaded rank (rank 0, which holds ⌈Ψ/P⌉ elements of every partitioned state). */
export interface ZeroModelStateBytes {
  /** 16-bit parameters: 2Ψ, or 2⌈Ψ/P⌉ at stage 3. */
  params: number;
  /** 16-bit gradients: 2Ψ, or 2⌈Ψ/P⌉ at stages 2–3. */
  grads: number;
  /** fp32 master, momentum, variance: 12Ψ, or 12⌈Ψ/P⌉ at stages 1–3 (the paper's K = 12). */
  optimizerStates: number;
  total: number;
}

/**
 * The ZeRO paper's model-state memory per rank for mixed-precision Adam
 * (2 + 2 + K bytes per parameter, K = 12), with the partitioned states
 * rounded up to whole elements: the largest shard of chunkBounds(Ψ, P) has ⌈Ψ/P⌉.
 *
 * @param numParams Ψ (integer ≥ 0)
 * @param numRanks P (integer ≥ 1)
 * @param stage 0–3
 * @returns {@link ZeroModelStateBytes} of rank 0 (the largest)
 * @throws RangeError `numRanks must be an integer >= 1, got 0`; `stage must be 0, 1, 2 or 3, got 4`; `numParams must be an integer >= 0, got 1.5`
 * @example zeroModelStateBytes(7.5e9, 64, 3).total // 1875000000 (the paper's 120 GB → 1.9 GB)
 * @see Rajbhandari et al. 2020, ZeRO, §5 and Figure 1 (Ψ = 7.5B, N_d = 64: 120 GB, 31.4 GB, 16.6 GB, 1.9 GB)
 */
export function zeroModelStateBytes(numParams: number, numRanks: number, stage: number): ZeroModelStateBytes {
  checkNumRanks(numRanks);
  checkStage(stage);
  if (!Number.isInteger(numParams) || numParams < 0) throw new RangeError(`numParams must be an integer >= 0, got ${numParams}`);
  const shard = Math.ceil(numParams / numRanks);
  const params = 2 * (stage >= 3 ? shard : numParams);
  const grads = 2 * (stage >= 2 ? shard : numParams);
  const optimizerStates = 12 * (stage >= 1 ? shard : numParams);
  return { params, grads, optimizerStates, total: params + grads + optimizerStates };
}
