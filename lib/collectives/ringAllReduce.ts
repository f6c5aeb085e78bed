import { chunkBounds } from "./chunkBounds.js";
import { World } from "./World.js";
import { costOf, resultOf, type CollectiveOptions, type CollectiveResult } from "./collectiveResult.js";
import { ringAllGatherPhase, ringReduceScatterPhase } from "./ringPhases.js";

/**
 * Ring all-reduce: every rank ends with the elementwise sum of all ranks'
 * buffers. The buffer is cut into P chunks (chunkBounds); P−1 reduce-scatter
 * steps leave chunk r summed on rank r, then P−1 all-gather steps copy every
 * summed chunk around the ring.
 *
 * Cost: 2(P−1) steps; each rank sends 2(P−1) chunks, i.e. 2(P−1)/P · n
 * elements when P divides n; time 2(P−1)(α + ⌈n/P⌉·bytesPerElement/B).
 *
 * @param buffers P buffers of n elements each (one per rank; not modified)
 * @param options cost model, bytes per element, reduction function
 * @returns `{result, events, timeS, numSteps, bytesSentPerRank, bytesReceivedPerRank}`; result[r] is the sum (n)
 * @throws RangeError `buffers must hold one buffer per rank (numRanks >= 1), got 0 buffers`;
 *   `buffers[1] has length 3, expected 4 (every rank's buffer must have the same length)`; cost model errors
 * @example ringAllReduce([[1, 2, 3], [10, 20, 30]]).result // [Float32Array [11, 22, 33], Float32Array [11, 22, 33]]
 * @see Patarasuk & Yuan 2009, JPDC 69(2); NCCL tests doc/PERFORMANCE.md ("busbw" of all-reduce: 2(n−1)/n)
 */
export function ringAllReduce(buffers: readonly ArrayLike<number>[], options: CollectiveOptions = {}): CollectiveResult {
  const world = new World(buffers, costOf(options), options);
  const bounds = chunkBounds(world.numElements, world.numRanks);
  ringReduceScatterPhase(world, bounds);
  ringAllGatherPhase(world, bounds);
  return resultOf(world, world.buffers.map((b) => b.slice()));
}
