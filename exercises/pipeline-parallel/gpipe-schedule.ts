import { notImplemented } from "../harness/index.js";

/** One pass of one micro-batch on one stage, in ms from the start of the step. */
export interface PassEvent { stage: number; microBatch: number; kind: "F" | "B"; chunk: 0; start: number; end: number }
/** Per-stage times of one micro-batch's forward and backward (ms, length p each), and of one send between neighbouring stages. */
export interface PipelineTimes { forward: number[]; backward: number[]; sendMs: number }

/**
 * Exercise 7.2 — the GPipe schedule as timed events.
 *
 * p stages, m micro-batches. Every stage runs the forwards of micro-batches 0 … m−1, then their
 * backwards in the same order (Huang et al. 2019, §2.2). Each pass starts as soon as its stage is
 * free and its input is there: F of micro-batch j on stage s needs F of j on stage s − 1 plus one
 * send; B of j on stage s needs its own F and B of j on stage s + 1 plus one send (the last stage's
 * B needs only its F). Stage s's F lasts `forward[s]`, its B `backward[s]`. Return one event per
 * pass (2·p·m, any order; `chunk` is 0). Times within 1e-9 (abs + rel).
 *
 * Errors (RangeError): `p must be an integer >= 1, got 0` (same for m);
 * `times.forward must have p = 3 entries, got 2` (same for backward);
 * `times.backward[1] must be a finite number >= 0, got -1` (same for forward);
 * `times.sendMs must be a finite number >= 0, got NaN`.
 * Read: the chapter's "GPipe" section.
 *
 * @param p stages; @param m micro-batches; @param times per-stage times and the send time
 * @returns the events
 * @example gpipeEvents(2, 1, { forward: [1, 1], backward: [1, 1], sendMs: 0 }) // [{stage:0,microBatch:0,kind:"F",chunk:0,start:0,end:1}, {stage:1,microBatch:0,kind:"F",chunk:0,start:1,end:2}, {stage:1,microBatch:0,kind:"B",chunk:0,start:2,end:3}, {stage:0,microBatch:0,kind:"B",chunk:0,start:3,end:4}]
 */
export function gpipeEvents(p: number, m: number, times: PipelineTimes): PassEvent[] {
  return notImplemented("7.2");
}
