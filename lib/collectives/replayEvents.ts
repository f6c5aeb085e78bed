import { copyBuffers, type CommEvent } from "./World.js";
import { addChunk } from "./addChunk.js";

/**
 * Rebuilds every rank's buffer after the first `numSteps` steps of a
 * collective, from its inputs and its event log alone: within a step all
 * payloads are read first, then copied or added (as in World.step). Pages use
 * it to draw an algorithm step by step.
 *
 * @param buffers the collective's inputs, one per rank (for allGather: the full-length initial buffers)
 * @param events the collective's event log
 * @param numSteps how many steps to apply (0 … number of steps)
 * @returns P new Float32Arrays
 * @throws RangeError `numSteps must be an integer >= 0, got -1`; and those of the World constructor
 * @example replayEvents(inputs, ringAllReduce(inputs).events, Infinity) // equals ringAllReduce(inputs).result
 * @see {@link World} (`step`: all payloads read before any lands); the page's section "Ring all-reduce, step by step" (src/data-parallel.md)
 */
export function replayEvents(buffers: readonly ArrayLike<number>[], events: readonly CommEvent[], numSteps: number): Float32Array[] {
  if (!(numSteps === Number.POSITIVE_INFINITY || (Number.isInteger(numSteps) && numSteps >= 0))) throw new RangeError(`numSteps must be an integer >= 0, got ${numSteps}`);
  const b = copyBuffers(buffers, true);
  let i = 0;
  while (i < events.length && events[i].step < numSteps) {
    const step = events[i].step;
    const batch: CommEvent[] = [];
    while (i < events.length && events[i].step === step) batch.push(events[i++]);
    const payloads = batch.map((e) => b[e.sender].slice(e.offset, e.offset + e.length));
    batch.forEach((e, k) => {
      const dst = b[e.receiver];
      dst.set(e.op === "copy" ? payloads[k] : addChunk(dst.subarray(e.offset, e.offset + e.length), payloads[k]), e.offset);
    });
  }
  return b;
}
