/**
 * Checkpoint segments for any number of layers: the least recomputation under
 * a memory limit, by dynamic programming instead of trying every segmentation.
 */
import type { LayerCost } from "./simulateCheckpointing.js";

/**
 * A segmentation (all segments but the last checkpointed, as `checkpoint_sequential`) whose peak
 * activation bytes fit `memoryLimitBytes` with the least recompute FLOPs, in O(n²).
 *
 * The recomputation is the FLOPs of the layers before the last segment, so the last segment
 * should start as early as possible. Before it, the checkpoints cost Σ in_j of their first layers,
 * and segment [a, b) is valid when Σ_{earlier checkpoints} in + Σ_{a ≤ i < b} saved_i ≤ limit (its
 * recompute peak); a prefix is best kept with the least checkpoint bytes C(b) = min C(a) + in_a over
 * valid [a, b), since every later constraint only gets easier with fewer checkpoint bytes. The last
 * segment [j, n) fits when C(j) + Σ_{j ≤ i < n} saved_i ≤ limit (the end of forward); the answer is the
 * smallest such j, ties in FLOPs broken by the earlier j.
 *
 * @param costs per-layer costs in layer order (at least one layer)
 * @param memoryLimitBytes the activation budget in bytes (>= 0; Infinity fits everything)
 * @returns segment lengths summing to costs.length
 * @throws {RangeError} `memoryLimitBytes must be a number >= 0, got -1`; `costs must describe at least one layer`;
 *   `no segmentation fits in memoryLimitBytes = 3: …`
 * @example
 * const c = { inputBytes: 1, savedBytes: 2, flops: 10 };
 * optimalSegments([c, c, c, c], 5) // [2, 2]: peak 5, 20 FLOPs recomputed (as the exhaustive chooseSegments)
 * @see Chen et al. 2016, *Training Deep Nets with Sublinear Memory Cost*, §4.2 (a budget-constrained plan);
 *   PyTorch `torch.utils.checkpoint.checkpoint_sequential` (every segment but the last is checkpointed)
 */
export function optimalSegments(costs: readonly LayerCost[], memoryLimitBytes: number): number[] {
  if (typeof memoryLimitBytes !== "number" || !(memoryLimitBytes >= 0)) throw new RangeError(`memoryLimitBytes must be a number >= 0, got ${memoryLimitBytes}`);
  const n = costs.length;
  if (n < 1) throw new RangeError("costs must describe at least one layer");
  const saved = [0];
  for (const c of costs) saved.push(saved[saved.length - 1]! + c.savedBytes); // saved[b] − saved[a] = Σ_{a ≤ i < b} saved_i
  const C = new Array<number>(n + 1).fill(Infinity), from = new Array<number>(n + 1).fill(-1);
  C[0] = 0;
  for (let b = 1; b <= n; b++) {
    for (let a = 0; a < b; a++) {
      if (C[a]! + saved[b]! - saved[a]! > memoryLimitBytes) continue;
      const v = C[a]! + costs[a]!.inputBytes;
      if (v < C[b]!) { C[b] = v; from[b] = a; }
    }
  }
  for (let j = 0; j < n; j++) {
    if (C[j]! + saved[n]! - saved[j]! > memoryLimitBytes) continue;
    const segments = [n - j];
    for (let b = j; b > 0; b = from[b]!) segments.unshift(b - from[b]!);
    return segments;
  }
  throw new RangeError(`no segmentation fits in memoryLimitBytes = ${memoryLimitBytes}: every choice peaks above it`);
}
