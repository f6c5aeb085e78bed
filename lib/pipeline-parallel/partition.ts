/**
 * Splitting layers into pipeline stages.
 */

/** A split of L layers into p contiguous stages. */
export interface Partition {
  /** p + 1 layer indices: stage s holds layers bounds[s] … bounds[s+1] − 1. */
  bounds: number[];
  /** Sum of the layer costs of each stage. */
  stageCosts: number[];
}

function checkCosts(costs: readonly number[], p: number): void {
  if (!Array.isArray(costs)) throw new TypeError(`costs must be an array of numbers, got ${String(costs)}`);
  costs.forEach((c, i) => { if (typeof c !== "number" || !Number.isFinite(c) || c < 0) throw new RangeError(`costs[${i}] must be a finite number >= 0, got ${c}`); });
  if (!Number.isInteger(p) || p < 1) throw new RangeError(`p must be an integer >= 1, got ${p}`);
  if (p > costs.length) throw new RangeError(`p must be <= the number of layers (${costs.length}): every stage needs a layer, got p = ${p}`);
}

/** Partition from bounds: the stage sums. */
export function partitionFromBounds(costs: readonly number[], bounds: readonly number[]): Partition {
  const stageCosts = [];
  for (let s = 0; s + 1 < bounds.length; s++) { let t = 0; for (let i = bounds[s]; i < bounds[s + 1]; i++) t += costs[i]; stageCosts.push(t); }
  return { bounds: [...bounds], stageCosts };
}

/**
 * Balances per-layer costs over p contiguous stages: minimizes the largest stage sum (the
 * slowest stage sets the pace of every schedule) by dynamic programming over prefix sums, O(p·L²).
 * Every stage gets at least one layer. Among optimal splits it returns the one whose stages end
 * as late as possible from the first stage on (ties resolved towards earlier stages taking more).
 * @param costs per-layer cost (time or FLOPs), each finite ≥ 0, length L ≥ p
 * @param p number of stages (integer 1 … L)
 * @returns bounds and stage sums
 * @throws {RangeError} `p must be <= the number of layers (3): every stage needs a layer, got p = 4`; `costs[1] must be a finite number >= 0, got -1`
 * @example balancePartition([1, 1, 1, 3], 2).stageCosts // [3, 3]
 * @see Huang et al. 2019 (GPipe), §2.2: partitions that balance the stages' cost; Narayanan et al. 2021, §3.3 (the slowest stage sets the throughput)
 */
export function balancePartition(costs: readonly number[], p: number): Partition {
  checkCosts(costs, p);
  const L = costs.length;
  const pre = [0];
  for (const c of costs) pre.push(pre[pre.length - 1] + c);
  // best[k][i]: min over splits of layers i … L−1 into k stages of the max stage sum
  const best: number[][] = Array.from({ length: p + 1 }, () => new Array(L + 1).fill(Infinity));
  const cut: number[][] = Array.from({ length: p + 1 }, () => new Array(L + 1).fill(-1));
  best[0][L] = 0;
  for (let k = 1; k <= p; k++) {
    for (let i = L - k; i >= 0; i--) {
      for (let j = L - k + 1; j > i; j--) { // first stage = layers i … j−1, largest first
        const v = Math.max(pre[j] - pre[i], best[k - 1][j]);
        if (v < best[k][i]) { best[k][i] = v; cut[k][i] = j; }
      }
    }
  }
  const bounds = [0];
  for (let k = p, i = 0; k >= 1; k--) { i = cut[k][i]; bounds.push(i); }
  return partitionFromBounds(costs, bounds);
}

/**
 * Megatron-style uniform split: L/p layers per stage, L/(p·v) per chunk when interleaved.
 * @returns p·v + 1 bounds over virtual stages (virtual stage k = chunk·p + device)
 * @throws {RangeError} `numLayers must be divisible by p * v = 8 (p = 4, v = 2), got 10`
 * @example uniformChunks(8, 2, 2) // [0, 2, 4, 6, 8]
 * @see Narayanan et al. 2021, §2.2.2 (each device holds v chunks of layers)
 */
export function uniformChunks(numLayers: number, p: number, v = 1): number[] {
  for (const [k, x] of [["numLayers", numLayers], ["p", p], ["v", v]] as const) if (!Number.isInteger(x) || x < 1) throw new RangeError(`${k} must be an integer >= 1, got ${x}`);
  if (numLayers % (p * v) !== 0) throw new RangeError(`numLayers must be divisible by p * v = ${p * v} (p = ${p}, v = ${v}), got ${numLayers}`);
  const per = numLayers / (p * v);
  return Array.from({ length: p * v + 1 }, (_, k) => k * per);
}
