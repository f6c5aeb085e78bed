import { World, copyBuffers } from "./World.js";
import { costOf, resultOf, type CollectiveOptions, type CollectiveResult } from "./collectiveResult.js";
import { ringAllGatherPhase } from "./ringPhases.js";
import type { ChunkRange } from "./chunkBounds.js";

/**
 * Ring all-gather: every rank ends with the concatenation, in rank order, of
 * all ranks' shards. Shards may have different lengths (even 0). Second half of
 * ring all-reduce; ZeRO-3 and FSDP use it to rebuild parameters.
 *
 * Cost: P−1 steps; with shards of chunkBounds(n, P) each rank sends
 * (P−1)/P · n elements when P divides n; time (P−1)(α + max shard·bytesPerElement/B).
 *
 * @param shards P shards (one per rank; not modified); n = total length
 * @param options cost model, bytes per element
 * @returns result[r]: the n-element concatenation, on every rank
 * @throws RangeError `buffers must hold one buffer per rank (numRanks >= 1), got 0 buffers`; cost model errors
 * @example allGather([[1, 2], [3]]).result // [Float32Array [1, 2, 3], Float32Array [1, 2, 3]]
 * @see torch.distributed.all_gather_into_tensor; NCCL tests doc/PERFORMANCE.md ((n−1)/n)
 */
export function allGather(shards: readonly ArrayLike<number>[], options: CollectiveOptions = {}): CollectiveResult {
  const own = copyBuffers(shards, false);
  const bounds: ChunkRange[] = [];
  let start = 0;
  for (const s of own) {
    bounds.push({ start, end: start + s.length });
    start += s.length;
  }
  const initial = own.map((s, r) => {
    const full = new Float32Array(start); // (n) zeros except this rank's shard
    full.set(s, bounds[r].start);
    return full;
  });
  const world = new World(initial, costOf(options), options);
  ringAllGatherPhase(world, bounds);
  return resultOf(world, world.buffers.map((b) => b.slice()));
}
