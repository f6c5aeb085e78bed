import type { ChunkRange } from "./chunkBounds.js";
import type { Message, World } from "./World.js";

const mod = (a: number, p: number) => ((a % p) + p) % p;

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
  const P = world.numRanks;
  for (let s = 0; s < P - 1; s++) {
    const messages: Message[] = [];
    for (let r = 0; r < P; r++) {
      const chunk = mod(r - s - 1, P);
      const { start, end } = bounds[chunk];
      messages.push({ sender: r, receiver: mod(r + 1, P), chunk, offset: start, length: end - start, op: "reduce" });
    }
    world.step("reduce-scatter", messages);
  }
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
  const P = world.numRanks;
  for (let s = 0; s < P - 1; s++) {
    const messages: Message[] = [];
    for (let r = 0; r < P; r++) {
      const chunk = mod(r - s, P);
      const { start, end } = bounds[chunk];
      messages.push({ sender: r, receiver: mod(r + 1, P), chunk, offset: start, length: end - start, op: "copy" });
    }
    world.step("all-gather", messages);
  }
}
