/**
 * Communication of one ZeRO step: the closed forms of the ZeRO paper and the
 * count from a run's message log.
 */
import { checkNumRanks } from "../collectives/index.js";
import { checkStage } from "./validateZeroOptions.js";

/**
 * Elements sent per step summed over all P ranks, for ring collectives over
 * Ψ parameters: each of reduce-scatter and all-gather moves every element
 * over P − 1 links, so stages 0–2 (reduce-scatter + all-gather, i.e. one
 * all-reduce's worth) send 2(P−1)Ψ and stage 3 (an all-gather in forward,
 * another in backward, a reduce-scatter) 3(P−1)Ψ. Per rank that is 2Ψ·(P−1)/P
 * and 3Ψ·(P−1)/P, the paper's "2Ψ" and "3Ψ" (1.5× DDP) as P grows.
 * Persistent tensors (stage3_param_persistence_threshold) are gathered once, after the step: 2(P−1) per element.
 *
 * @param stage 0–3
 * @param numParams Ψ (integer ≥ 0)
 * @param numRanks P (integer ≥ 1)
 * @param persistentParams stage 3: elements of persistent tensors (default 0)
 * @returns elements sent by all ranks together in one step
 * @throws RangeError `numRanks must be an integer >= 1, got 0`; `stage must be 0, 1, 2 or 3, got 4`; `numParams must be an integer >= 0, got -1`
 * @example zeroCommElements(3, 1000, 4) // 9000 = 3 · 3 · 1000
 * @see Rajbhandari et al. 2020, ZeRO, §7.2 (2Ψ for P_os and P_os+g, 3Ψ for P_os+g+p: "1.5x" of DP)
 */
export function zeroCommElements(stage: number, numParams: number, numRanks: number, persistentParams = 0): number {
  checkNumRanks(numRanks);
  checkStage(stage);
  if (!Number.isInteger(numParams) || numParams < 0) throw new RangeError(`numParams must be an integer >= 0, got ${numParams}`);
  const hops = numRanks - 1;
  return stage === 3 ? hops * (3 * (numParams - persistentParams) + 2 * persistentParams) : 2 * hops * numParams;
}
