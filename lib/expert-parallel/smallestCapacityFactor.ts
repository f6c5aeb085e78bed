/**
 * The inverse of expert capacity: the smallest capacity factor, in hundredths,
 * at which no rank drops a token of a given routing.
 */

/**
 * The smallest capacity factor CF = j/100 (j a positive integer) for which every rank's capacity
 * ⌈(N_r·k/E)·CF⌉, computed exactly, holds the busiest expert's load on that rank.
 *
 * ⌈x⌉ ≥ m ⟺ x > m − 1, so rank r needs N_r·k·j/(100E) > m_r − 1, i.e. j > 100·(m_r − 1)·E/(N_r·k):
 * j = max over ranks of ⌊100·(m_r − 1)·E/(N_r·k)⌋ + 1 (ranks without tokens need nothing), and at least 1.
 *
 * @param routings per rank, the expert ids of its (token, slot) pairs, (N_r·k) row-major
 * @param numExperts E
 * @param topK k
 * @returns the capacity factor j/100
 * @throws {RangeError} `routings[1] has 3 expert ids, not a multiple of topK = 2`; `routings[0][2] must be an expert in [0, 4), got 4`
 * @example smallestCapacityFactor([[0, 0, 0, 1]], 2, 1) // 1.01: 3 tokens on expert 0 need ⌈4·1/2·CF⌉ ≥ 3, i.e. CF > 1
 * @see Fedus et al. 2021, *Switch Transformers* §2.2 (Eq. 3, capacity factor); Megatron-LM `moe_utils.py` `get_capacity` at d98e8a6 (ceil, per rank)
 */
export function smallestCapacityFactor(routings: readonly (readonly number[])[], numExperts: number, topK: number): number {
  const E = numExperts, k = topK;
  let j = 1;
  routings.forEach((ids, r) => {
    if (ids.length % k !== 0) throw new RangeError(`routings[${r}] has ${ids.length} expert ids, not a multiple of topK = ${k}`);
    const N = ids.length / k;
    if (N === 0) return;
    const load = new Array<number>(E).fill(0);
    ids.forEach((e, s) => {
      if (!Number.isInteger(e) || e < 0 || e >= E) throw new RangeError(`routings[${r}][${s}] must be an expert in [0, ${E}), got ${e}`);
      load[e]++;
    });
    const m = Math.max(...load), num = 100 * (m - 1) * E, den = N * k; // integers: exact floor
    j = Math.max(j, (num - (num % den)) / den + 1);
  });
  return j / 100;
}
