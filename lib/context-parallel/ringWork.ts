/**
 * How much attention work each rank does at each step of the ring: the number
 * of (query, key) pairs a causal mask keeps in the block it holds. Contiguous
 * shards leave the first ranks idle; zig-zag and striped shards even it out.
 */
import { checkShards } from "./sequenceShards.js";

/**
 * Kept (query, key) pairs of every block of the ring, per (batch, head).
 *
 * work[r][s] counts the pairs (i, j), i a position of rank r and j a position of rank
 * (r − s) mod C (the block rank r holds at step s), with j ≤ i when causal (all n² pairs
 * otherwise). Counted from sorted copies of the positions with two pointers, O(C·N), never
 * pair by pair (a 2²⁰-token sequence has 5.5·10¹¹ causal pairs).
 * @param shards each rank's global positions (together 0 … N−1 once each, n per rank; not modified)
 * @param causal whether the mask is causal
 * @returns C rows of C counts (new arrays)
 * @throws RangeError as checkShards, e.g. `position 5 appears twice (shards[1])`
 * @example ringWork([[0, 1], [2, 3]], true) // [[3, 0], [3, 4]]: rank 0 idles at step 1
 * @example ringWork([[0, 3], [1, 2]], true) // [[3, 2], [3, 2]]: zig-zag
 * @see Brandon et al. 2023, *Striped Attention*, §3 (the causal workload per device and per round)
 */
export function ringWork(shards: readonly (readonly number[])[], causal: boolean): number[][] {
  checkShards(shards);
  const C = shards.length, n = shards[0].length;
  if (!causal) return Array.from({ length: C }, () => new Array<number>(C).fill(n * n));
  const sorted = shards.map((s) => Float64Array.from(s).sort());
  return Array.from({ length: C }, (_, r) => Array.from({ length: C }, (_, s) => {
    const q = sorted[r], k = sorted[(((r - s) % C) + C) % C];
    let pairs = 0;
    for (let i = 0, j = 0; i < n; i++) {
      while (j < n && k[j] <= q[i]) j++; // keys ≤ this query
      pairs += j;
    }
    return pairs;
  }));
}

/**
 * What a work table means for the ring's time, in pairs (multiply by the cost of a pair).
 * @see the sources of {@link ringWorkSummary}
 */
export interface RingWorkSummary {
  /** Pairs each rank computes over the whole ring. */
  perRank: number[];
  /** All pairs: N(N+1)/2 per (batch, head) when causal, N² otherwise. */
  total: number;
  /** Σ over steps of the busiest rank's pairs: the ring's time when every step waits for its slowest rank. */
  criticalPath: number;
  /** total / C: the time with perfect balance. */
  ideal: number;
  /** criticalPath / ideal (1 = balanced; 2 − 1/C for contiguous causal shards as n grows). */
  imbalance: number;
}

/**
 * Totals, critical path and imbalance of a work table from {@link ringWork}.
 * @param work C rows of C counts (work[r][s])
 * @returns {perRank, total, criticalPath, ideal, imbalance}
 * @throws RangeError `work must be a non-empty square table (C rows of C counts)`
 * @example ringWorkSummary([[3, 0], [3, 4]]) // {perRank: [3, 7], total: 10, criticalPath: 7, ideal: 5, imbalance: 1.4}
 * @see Brandon et al. 2023, *Striped Attention*, §3 and Figure 2 (the slowest device sets the pace of each round)
 */
export function ringWorkSummary(work: readonly (readonly number[])[]): RingWorkSummary {
  const C = work.length;
  if (C === 0 || work.some((row) => row.length !== C)) throw new RangeError("work must be a non-empty square table (C rows of C counts)");
  const perRank = work.map((row) => row.reduce((a, b) => a + b, 0));
  const total = perRank.reduce((a, b) => a + b, 0);
  let criticalPath = 0;
  for (let s = 0; s < C; s++) { let m = 0; for (let r = 0; r < C; r++) m = Math.max(m, work[r][s]); criticalPath += m; }
  const ideal = total / C;
  return { perRank, total, criticalPath, ideal, imbalance: ideal > 0 ? criticalPath / ideal : 1 };
}
