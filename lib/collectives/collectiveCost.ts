import { chunkBounds } from "./chunkBounds.js";
import { checkBytesPerElement, checkNumElements, checkNumRanks, validateCostModel, type CostModel } from "./costModel.js";

/**
 * The algorithms whose cost {@link collectiveCost} gives in closed form.
 * @see the sources of {@link collectiveCost}: NCCL tests doc/PERFORMANCE.md (bus bandwidth factors 2(n−1)/n and (n−1)/n); Patarasuk & Yuan 2009; Li et al. 2014
 */
export type CollectiveAlgorithm = "ring-all-reduce" | "reduce-scatter" | "all-gather" | "broadcast" | "reduce" | "parameter-server";

/**
 * Closed-form cost of one collective under the α-β model.
 * @see the sources of {@link collectiveCost}: NCCL tests doc/PERFORMANCE.md (bus bandwidth factors 2(n−1)/n and (n−1)/n); Patarasuk & Yuan 2009; Li et al. 2014
 */
export interface CollectiveCost {
  /** Number of communication steps. */
  numSteps: number;
  /** Time in seconds. */
  timeS: number;
  /**
   * Bytes sent by the busiest rank: for the ring, rank r sends every chunk but chunk r
   * (reduce-scatter) and every chunk but chunk r+1 (all-gather), which is 2(P−1)/P·S
   * (all-reduce) or (P−1)/P·S when P divides n; the server's (P−1)·S for the parameter
   * server; the root's ⌈log2 P⌉·S for the trees.
   */
  maxBytesSentPerRank: number;
  /** Bytes sent by all ranks together. */
  totalBytes: number;
}

/**
 * Closed-form steps, time and bytes of a collective on n elements over P ranks,
 * equal to what the simulated collectives measure (tests check that).
 * With S = n·bytesPerElement and c = ⌈n/P⌉·bytesPerElement (the largest chunk):
 *
 * | algorithm | steps | time | busiest rank sends | all ranks send |
 * |---|---|---|---|---|
 * | ring-all-reduce | 2(P−1) | 2(P−1)(α + c/B) | ≤ 2(P−1)·c | 2(P−1)·S |
 * | reduce-scatter, all-gather | P−1 | (P−1)(α + c/B) | ≤ (P−1)·c | (P−1)·S |
 * | broadcast, reduce (binomial tree) | ⌈log2 P⌉ | ⌈log2 P⌉(α + S/B) | ⌈log2 P⌉·S | (P−1)·S |
 * | parameter-server | 2 | 2(α + max((P−1)·S/B_server, S/B)) | (P−1)·S | 2(P−1)·S |
 *
 * n = 0 or P = 1: no step, no time, no bytes.
 *
 * @param algorithm which collective
 * @param numElements n (integer ≥ 0)
 * @param numRanks P (integer ≥ 1)
 * @param cost α-β cost model
 * @param bytesPerElement default 4 (float32)
 * @returns `{numSteps, timeS, maxBytesSentPerRank, totalBytes}`
 * @throws RangeError `numRanks must be an integer >= 1, got 0`; `numElements must be an integer >= 0, got -1`; cost model errors
 * @example collectiveCost("ring-all-reduce", 1024, 4, { alphaS: 0, bandwidthBytesPerS: 1e9 }).maxBytesSentPerRank // 6144 = 2·3/4·4096
 * @see NCCL tests doc/PERFORMANCE.md (bus bandwidth factors 2(n−1)/n and (n−1)/n); Patarasuk & Yuan 2009; Li et al. 2014
 */
export function collectiveCost(algorithm: CollectiveAlgorithm, numElements: number, numRanks: number, cost: CostModel, bytesPerElement = 4): CollectiveCost {
  const P = checkNumRanks(numRanks);
  const n = checkNumElements(numElements);
  const c = validateCostModel(cost);
  const b = checkBytesPerElement(bytesPerElement);
  if (n === 0 || P === 1) return { numSteps: 0, timeS: 0, maxBytesSentPerRank: 0, totalBytes: 0 };
  const S = n * b;
  const chunk = Math.ceil(n / P) * b;
  const len = chunkBounds(n, P).map((r) => r.end - r.start);
  // rank r sends every chunk but chunk r in reduce-scatter, every chunk but chunk r+1 in all-gather
  // (a loop, not Math.max(...array): a million ranks would overflow the call stack)
  const busiest = (phases: number, skip: (r: number) => number) => len.reduce((m, _, r) => Math.max(m, (phases * n - skip(r)) * b), -Infinity);
  const ring = (phases: number, sent: number) => ({
    numSteps: phases * (P - 1),
    timeS: phases * (P - 1) * (c.alphaS + chunk / c.bandwidthBytesPerS),
    maxBytesSentPerRank: sent,
    totalBytes: phases * (P - 1) * S,
  });
  const depth = Math.ceil(Math.log2(P));
  switch (algorithm) {
    case "ring-all-reduce":
      return ring(2, busiest(2, (r) => len[r] + len[(r + 1) % P]));
    case "reduce-scatter":
      return ring(1, busiest(1, (r) => len[r]));
    case "all-gather":
      return ring(1, busiest(1, (r) => len[(r + 1) % P]));
    case "broadcast":
    case "reduce":
      return { numSteps: depth, timeS: depth * (c.alphaS + S / c.bandwidthBytesPerS), maxBytesSentPerRank: depth * S, totalBytes: (P - 1) * S };
    case "parameter-server": {
      const stepS = c.alphaS + Math.max(((P - 1) * S) / c.serverBandwidthBytesPerS, S / c.bandwidthBytesPerS);
      return { numSteps: 2, timeS: 2 * stepS, maxBytesSentPerRank: (P - 1) * S, totalBytes: 2 * (P - 1) * S };
    }
    default:
      throw new RangeError(`algorithm must be one of ring-all-reduce, reduce-scatter, all-gather, broadcast, reduce, parameter-server, got ${String(algorithm)}`);
  }
}

/**
 * The ideal bytes each rank sends in a ring all-reduce of S bytes: 2(P−1)/P · S.
 * Tends to 2S as P grows: the per-rank traffic does not grow with P, which is
 * why the ring is bandwidth-optimal (any all-reduce must send at least
 * 2(P−1)/P · S per rank, Patarasuk & Yuan 2009, Sec. 2).
 *
 * @param bufferBytes S in bytes (≥ 0)
 * @param numRanks P (≥ 1)
 * @returns bytes per rank
 * @throws RangeError `numRanks must be an integer >= 1, got 0`
 * @example ringAllReduceBytesPerRank(4e6, 4) // 6e6
 * @see NCCL tests doc/PERFORMANCE.md, "AllReduce": busbw = algbw · 2(n−1)/n
 */
export function ringAllReduceBytesPerRank(bufferBytes: number, numRanks: number): number {
  checkNumRanks(numRanks);
  if (!Number.isFinite(bufferBytes) || bufferBytes < 0) throw new RangeError(`bufferBytes must be a finite number >= 0, got ${bufferBytes}`);
  return (2 * (numRanks - 1) * bufferBytes) / numRanks;
}
