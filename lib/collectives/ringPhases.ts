import type { ChunkRange } from "./chunkBounds.js";
import type { Message, World } from "./World.js";

const mod = (a: number, p: number) => ((a % p) + p) % p;

/**
 * Where groups of ranks run a ring at the same time: `ranks[g]` are the members of ring g in ring order, and
 * `bounds[g][k]` is the range of chunk k of ring g (the chunk its k-th member ends with). Rings of one call have
 * the same size; they share the World's steps (their messages are simultaneous).
 * @see {@link ringReduceScatterPhaseGroups}
 */
export interface RingGroups {
  ranks: readonly (readonly number[])[];
  bounds: readonly (readonly ChunkRange[])[];
}

/** Checks that the rings are non-empty, of one size, disjoint, inside the world, with one chunk per member. */
function checkGroups(world: World, g: RingGroups): number {
  if (g.ranks.length === 0 || g.ranks.length !== g.bounds.length) throw new RangeError(`ranks and bounds must list the same rings (at least one), got ${g.ranks.length} and ${g.bounds.length}`);
  const size = g.ranks[0].length, seen = new Set<number>();
  g.ranks.forEach((ring, i) => {
    if (ring.length !== size || ring.length === 0) throw new RangeError(`every ring must have the same size >= 1: ring 0 has ${size} ranks, ring ${i} has ${ring.length}`);
    if (g.bounds[i].length !== size) throw new RangeError(`ring ${i} has ${size} ranks but ${g.bounds[i].length} chunk ranges`);
    for (const r of ring) {
      if (!Number.isInteger(r) || r < 0 || r >= world.numRanks) throw new RangeError(`rank ${r} of ring ${i} is not in the world (ranks 0..${world.numRanks - 1})`);
      if (seen.has(r)) throw new RangeError(`rank ${r} is in two rings`);
      seen.add(r);
    }
  });
  return size;
}

/**
 * Runs the P−1 reduce-scatter steps of a ring inside each group at once: at step s, the member at ring position k
 * sends chunk (k − s − 1) mod P to the member at k + 1, which adds it into its own copy. Afterwards the member at
 * position k holds the group's full sum of chunk k. With one group of all ranks this is {@link ringReduceScatterPhase}.
 *
 * @param world the simulated ranks (modified)
 * @param groups the rings and their chunk ranges ({@link RingGroups})
 * @param bytesPerElement bytes per element of this collective (default the World's)
 * @example ringReduceScatterPhaseGroups(world, { ranks: [[0, 1], [2, 3]], bounds: [chunkBounds(8, 2), chunkBounds(8, 2)] })
 *   // ranks 0 and 1 sum their buffers, so do 2 and 3: one World step (P − 1 = 1) for both rings
 * @throws RangeError `every ring must have the same size >= 1: ring 0 has 2 ranks, ring 1 has 3`; `rank 4 is in two rings`
 * @see Patarasuk & Yuan 2009, Sec. 3 (the ring); PyTorch FSDP2 `_fsdp_collectives.py` at 010ae4a (`reduce_scatter_tensor` over the shard group, `all_reduce` over the replicate group)
 * @returns nothing; `world.buffers`, clocks and events are updated
 */
export function ringReduceScatterPhaseGroups(world: World, groups: RingGroups, bytesPerElement?: number): void {
  const P = checkGroups(world, groups);
  for (let s = 0; s < P - 1; s++) {
    const messages: Message[] = [];
    groups.ranks.forEach((ring, g) => ring.forEach((r, k) => {
      const chunk = mod(k - s - 1, P), { start, end } = groups.bounds[g][chunk];
      messages.push({ sender: r, receiver: ring[mod(k + 1, P)], chunk, offset: start, length: end - start, op: "reduce" });
    }));
    world.step("reduce-scatter", messages, bytesPerElement);
  }
}

/**
 * Runs the P−1 all-gather steps of a ring inside each group at once: at step s, the member at ring position k sends
 * chunk (k − s) mod P to the member at k + 1, which copies it. Starting with chunk k complete at position k, every
 * member ends with every chunk of its group. With one group of all ranks this is {@link ringAllGatherPhase}.
 *
 * @param world the simulated ranks (modified)
 * @param groups the rings and their chunk ranges ({@link RingGroups})
 * @param bytesPerElement bytes per element of this collective (default the World's)
 * @example ringAllGatherPhaseGroups(world, { ranks: [[0, 1, 2, 3]], bounds: [chunkBounds(world.numElements, 4)] })
 *   // the same messages as ringAllGatherPhase(world, chunkBounds(world.numElements, 4)) on 4 ranks
 * @throws RangeError as {@link ringReduceScatterPhaseGroups}
 * @see Patarasuk & Yuan 2009, Sec. 3; PyTorch FSDP2 `_fsdp_collectives.py` at 010ae4a (`all_gather_into_tensor` over the shard or post-forward group)
 * @returns nothing; `world.buffers`, clocks and events are updated
 */
export function ringAllGatherPhaseGroups(world: World, groups: RingGroups, bytesPerElement?: number): void {
  const P = checkGroups(world, groups);
  for (let s = 0; s < P - 1; s++) {
    const messages: Message[] = [];
    groups.ranks.forEach((ring, g) => ring.forEach((r, k) => {
      const chunk = mod(k - s, P), { start, end } = groups.bounds[g][chunk];
      messages.push({ sender: r, receiver: ring[mod(k + 1, P)], chunk, offset: start, length: end - start, op: "copy" });
    }));
    world.step("all-gather", messages, bytesPerElement);
  }
}

const everyRank = (world: World) => [Array.from({ length: world.numRanks }, (_, r) => r)];

/**
 * Runs the P−1 reduce-scatter steps of the ring on `world`: at step s, rank r
 * sends chunk (r − s − 1) mod P to rank (r + 1) mod P, which adds it into its
 * own copy. Afterwards rank r holds the full sum of chunk r.
 *
 * @param world the simulated ranks (modified)
 * @param bounds P chunk ranges of the buffer (chunkBounds(n, P))
 * @example ringReduceScatterPhase(world, chunkBounds(world.numElements, world.numRanks))
 *   // world.numSteps grows by P − 1; chunk r of world.buffers[r] now holds the sum over ranks
 * @see Patarasuk & Yuan 2009, "Bandwidth optimal all-reduce algorithms for clusters of workstations", JPDC 69(2), Sec. 3
 * @returns nothing; `world.buffers`, clocks and events are updated
 */
export function ringReduceScatterPhase(world: World, bounds: readonly ChunkRange[]): void {
  ringReduceScatterPhaseGroups(world, { ranks: everyRank(world), bounds: [bounds] });
}

/**
 * Runs the P−1 all-gather steps of the ring on `world`: at step s, rank r
 * sends chunk (r − s) mod P to rank (r + 1) mod P, which copies it.
 * Starting with chunk r complete on rank r, every rank ends with every chunk.
 *
 * @param world the simulated ranks (modified)
 * @param bounds P chunk ranges of the buffer
 * @example ringAllGatherPhase(world, chunkBounds(world.numElements, world.numRanks))
 *   // after ringReduceScatterPhase: every world.buffers[r] holds the full sum (ring all-reduce)
 * @see Patarasuk & Yuan 2009, Sec. 3
 * @returns nothing; `world.buffers`, clocks and events are updated
 */
export function ringAllGatherPhase(world: World, bounds: readonly ChunkRange[]): void {
  ringAllGatherPhaseGroups(world, { ranks: everyRank(world), bounds: [bounds] });
}
