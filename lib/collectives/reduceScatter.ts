import { chunkBounds } from "./chunkBounds.js";
import { World } from "./World.js";
import { costOf, resultOf, type CollectiveOptions, type CollectiveResult } from "./collectiveResult.js";
import { ringReduceScatterPhase } from "./ringPhases.js";

/**
 * Ring reduce-scatter: rank r ends with chunk r (chunkBounds(n, P)[r]) of the
 * elementwise sum of all ranks' buffers. First half of ring all-reduce; ZeRO
 * and FSDP use it to shard gradients.
 *
 * Cost: P−1 steps; each rank sends (P−1)/P · n elements when P divides n;
 * time (P−1)(α + ⌈n/P⌉·bytesPerElement/B).
 *
 * @param buffers P buffers of n elements each (not modified)
 * @param options cost model, bytes per element, reduction function
 * @returns result[r]: the summed chunk r, of length chunkBounds(n, P)[r].end − start
 * @throws RangeError as ringAllReduce
 * @example reduceScatter([[1, 2, 3], [10, 20, 30]]).result // [Float32Array [11, 22], Float32Array [33]]
 * @see torch.distributed.reduce_scatter; NCCL tests doc/PERFORMANCE.md ((n−1)/n)
 */
export function reduceScatter(buffers: readonly ArrayLike<number>[], options: CollectiveOptions = {}): CollectiveResult {
  const world = new World(buffers, costOf(options), options);
  const bounds = chunkBounds(world.numElements, world.numRanks);
  ringReduceScatterPhase(world, bounds);
  return resultOf(world, world.buffers.map((b, r) => b.slice(bounds[r].start, bounds[r].end)));
}
