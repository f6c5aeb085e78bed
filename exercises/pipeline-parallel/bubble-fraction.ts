import { notImplemented } from "../harness/index.js";

/**
 * Exercise 7.3 — the bubble, measured from the events.
 *
 * `events` is a pipeline step as timed passes (any order, any schedule: F, B and possibly W passes,
 * stages of different speed). The step time is the latest end (passes start at t ≥ 0, the step at
 * t = 0). The ideal time is the busiest stage's total compute time (sum of its passes' durations).
 * Return the bubble as a fraction of the ideal time: (step − ideal) / ideal (0 when ideal is 0).
 * This is Narayanan et al. 2021's t_pb / t_id (§2.2.1), not GPipe's fraction of the step.
 * Tolerance 1e-12 (abs + rel).
 *
 * Errors (RangeError): `events must not be empty`; `events[3].start must be a finite number >= 0, got -1`;
 * `events[3].end must be >= start, got 0.5 < 1` (check each event in order, start first).
 * Read: the chapter's "Measuring the bubble" section.
 *
 * @param events timed passes {stage, microBatch, kind, chunk, start, end}
 * @returns (step − ideal) / ideal
 * @example bubbleFractionOf([{stage:0,microBatch:0,kind:"F",chunk:0,start:0,end:1}, {stage:1,microBatch:0,kind:"F",chunk:0,start:1,end:2}, {stage:1,microBatch:0,kind:"B",chunk:0,start:2,end:3}, {stage:0,microBatch:0,kind:"B",chunk:0,start:3,end:4}]) // 1
 */
export function bubbleFractionOf(events: { stage: number; microBatch: number; kind: "F" | "B" | "W"; chunk: number; start: number; end: number }[]): number {
  return notImplemented("7.3");
}
