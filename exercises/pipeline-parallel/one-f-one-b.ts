import { notImplemented } from "../harness/index.js";
import type { PassEvent, PipelineTimes } from "./gpipe-schedule.js";

export type { PassEvent, PipelineTimes };

/**
 * Exercise 7.4 (build it) — the 1F1B schedule, driving pipeline training.
 *
 * p stages, m micro-batches (any m ≥ 1, also m < p). 1F1B is PipeDream-Flush as Megatron-LM runs
 * it (Narayanan et al. 2021, §2.2.1): after a warm-up, every stage alternates one forward and one
 * backward, so stage s never holds the activations of more than min(p − s, m) micro-batches;
 * forwards and backwards each run in micro-batch order 0 … m−1; one flush per step. Timing as in
 * exercise 7.2: a pass starts as soon as its stage is free and its input is there (F of j on s
 * needs F of j on s − 1 plus one send; B of j on s needs its own F and B of j on s + 1 plus one
 * send); stage s's F lasts `forward[s]`, its B `backward[s]`. Return the 2·p·m events (any order,
 * `chunk` 0), times within 1e-9 (abs + rel).
 *
 * Your function is then handed to the course's pipeline trainer (lib/pipeline-parallel
 * `trainPipeline`), which runs lib/nn's model split into p stages in the order of your events;
 * the trained weights must equal one device's, bit for bit.
 *
 * Errors (RangeError), as in 7.2: `p must be an integer >= 1, got 0` (same for m);
 * `times.forward must have p = 3 entries, got 2`; `times.backward[1] must be a finite number >= 0, got -1`;
 * `times.sendMs must be a finite number >= 0, got NaN`.
 * Read: the chapter's "1F1B" and "Training on simulated stages" sections.
 *
 * @param p stages; @param m micro-batches; @param times per-stage times (ms) and the send time
 * @returns the events
 * @example oneFOneBEvents(2, 2, { forward: [1, 1], backward: [1, 1], sendMs: 0 }) // stage 0: F0 [0,1], F1 [1,2], B0 [3,4], B1 [5,6]; stage 1: F0 [1,2], B0 [2,3], F1 [3,4], B1 [4,5]
 */
export function oneFOneBEvents(p: number, m: number, times: PipelineTimes): PassEvent[] {
  return notImplemented("7.4");
}
