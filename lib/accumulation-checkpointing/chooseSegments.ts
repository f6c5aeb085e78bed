/**
 * Choosing where to checkpoint under a memory limit.
 */
import { allSegmentations } from "./segments.js";
import { simulateCheckpointing, type LayerCost } from "./simulateCheckpointing.js";

/**
 * One point of the memory/compute trade-off.
 * @see the sources of {@link tradeoff}: Chen et al. 2016, *Training Deep Nets with Sublinear Memory Cost*, §4 (trading computation for memory);
 *   the page's section "How many segments?" (src/accumulation-checkpointing.md)
 */
export interface SegmentationPoint {
  segments: number[];
  peakBytes: number;
  recomputeFlops: number;
}

/**
 * Every segmentation of the layers with its peak activation bytes and recompute FLOPs.
 *
 * @param costs per-layer costs (at most 16 layers: 2^15 segmentations)
 * @returns one point per segmentation, in the order of {@link allSegmentations}
 * @throws {RangeError} `costs must describe 1 to 16 layers, got 0`
 * @example
 * tradeoff(layerCosts(model.layers, 128)).length; // 2^(n−1)
 * @see Chen et al. 2016, *Training Deep Nets with Sublinear Memory Cost*, §4 (trading computation for memory);
 *   the page's section "How many segments?" (src/accumulation-checkpointing.md)
 */
export function tradeoff(costs: readonly LayerCost[]): SegmentationPoint[] {
  if (costs.length < 1 || costs.length > 16) throw new RangeError(`costs must describe 1 to 16 layers, got ${costs.length}`);
  return allSegmentations(costs.length).map((segments) => {
    const { peakBytes, recomputeFlops } = simulateCheckpointing(costs, segments).result;
    return { segments, peakBytes, recomputeFlops };
  });
}

/**
 * The segmentation with the least recomputation whose peak activation memory fits the limit
 * (ties: the smaller peak, then the first in {@link allSegmentations} order), by exhaustive search.
 *
 * @param costs per-layer costs (1 to 16 layers)
 * @param memoryLimitBytes activation budget in bytes (>= 0)
 * @returns segment lengths (all but the last checkpointed)
 * @throws {RangeError} `memoryLimitBytes must be a number >= 0, got -1`;
 *   `no segmentation fits in memoryLimitBytes = …: the smallest peak is … bytes`
 * @example
 * const c = { inputBytes: 1, savedBytes: 2, flops: 10 };
 * chooseSegments([c, c, c, c], 8); // [4] (no checkpointing needed)
 * chooseSegments([c, c, c, c], 5); // [2, 2]: peak 5, recomputes 20 FLOPs ([1, 1, 1, 1] also peaks at 5 but recomputes 30)
 * @see Chen et al. 2016, §4.2 (choosing checkpoints under a budget)
 */
export function chooseSegments(costs: readonly LayerCost[], memoryLimitBytes: number): number[] {
  if (typeof memoryLimitBytes !== "number" || !(memoryLimitBytes >= 0)) throw new RangeError(`memoryLimitBytes must be a number >= 0, got ${memoryLimitBytes}`);
  const points = tradeoff(costs);
  let best: SegmentationPoint | null = null;
  for (const p of points) {
    if (p.peakBytes > memoryLimitBytes) continue;
    if (!best || p.recomputeFlops < best.recomputeFlops || (p.recomputeFlops === best.recomputeFlops && p.peakBytes < best.peakBytes)) best = p;
  }
  if (!best) {
    const min = Math.min(...points.map((p) => p.peakBytes));
    throw new RangeError(`no segmentation fits in memoryLimitBytes = ${memoryLimitBytes}: the smallest peak is ${min} bytes`);
  }
  return [...best.segments];
}
