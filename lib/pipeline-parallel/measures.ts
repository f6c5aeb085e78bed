/**
 * Measures read from a schedule's events: step time, busy time, bubble, in-flight micro-batches.
 */
import type { Schedule, ScheduleName } from "./schedule.js";
import { inFlightTimeline } from "./validate.js";

/**
 * Step time: the end of the last pass (passes start at t = 0).
 * @example stepTime(gpipeSchedule(4, 8)) // 22
 */
export function stepTime(s: Schedule): number {
  let t = 0;
  for (const e of s.events) t = Math.max(t, e.end);
  return t;
}

/**
 * Time each stage spends computing: the total length of its passes' intervals, an overlapped F&B
 * pair counted once.
 * @returns one number per stage, ms
 * @example busyTimes(gpipeSchedule(2, 3)) // [6, 6]
 */
export function busyTimes(s: Schedule): number[] {
  const b = new Array(s.p).fill(0);
  for (const e of s.events) if (!(e.overlapped && e.kind === "B")) b[e.stage] += e.end - e.start;
  return b;
}

/**
 * Each stage's span: from the start of its first pass to the end of its last. Qi et al. (§5.3)
 * measure a schedule by the largest span ("the largest execution time of all stages"), which is
 * what the step lasts when the optimizer does not make every stage wait for the last one
 * (post-validation, {@link simulateOptimizerStep}).
 * @returns one number per stage, ms (0 for a stage with no pass)
 * @example stageSpans(gpipeSchedule(2, 2)) // [6, 4]
 * @see Qi et al. 2023, §5.3 (bubble rate) and §4
 */
export function stageSpans(s: Schedule): number[] {
  const first = new Array(s.p).fill(Infinity), last = new Array(s.p).fill(-Infinity);
  for (const e of s.events) { first[e.stage] = Math.min(first[e.stage], e.start); last[e.stage] = Math.max(last[e.stage], e.end); }
  return first.map((f, i) => (Number.isFinite(f) ? last[i] - f : 0));
}

/**
 * The bubble inside the stages' spans, as a fraction of the ideal time: (max span − ideal)/ideal,
 * the ideal being the busiest stage's compute time as in {@link bubbleFraction}. Equal to
 * bubbleFraction when stage 0 runs from the start to the end of the step (GPipe, 1F1B, ZB-H1); smaller for
 * schedules whose stages start and end at different times (ZB-H2's parallelogram). Qi et al.'s
 * bubble rate (Table 5) is x/(1 + x) of this x.
 * @example spanBubbleFraction(zbH2Schedule(4, 8)) // 0, against bubbleFraction 0.125
 * @see Qi et al. 2023, §5.3
 */
export function spanBubbleFraction(s: Schedule): number {
  const ideal = Math.max(0, ...busyTimes(s));
  return ideal > 0 ? (Math.max(...stageSpans(s)) - ideal) / ideal : 0;
}

/**
 * The bubble as a fraction of the ideal time: (step − ideal)/ideal, where the ideal time is the
 * busiest stage's compute time (what the step would last if no stage ever waited).
 * With equal stages this is (p − 1)/m for GPipe and 1F1B and (p − 1)/(v·m) interleaved
 * (Narayanan et al. 2021, §2.2.1–2.2.2 write it this way: t_pb/t_id).
 * GPipe (Huang et al. 2019, §2.3) writes the bubble as O((p − 1)/(m + p − 1)), a fraction of the
 * *total* step time (m + p − 1)(F + B): the same idle time (p − 1)(F + B), divided by the step instead
 * of the ideal; x/ideal = y/total with y = x/(1 + x). See {@link bubbleFractionOfStep}.
 * @param s a schedule
 * @returns a number ≥ 0 (0 when the ideal time is 0)
 * @example bubbleFraction(gpipeSchedule(4, 8)) // 0.375 = 3/8
 * @see Narayanan et al. 2021, §2.2.1; Huang et al. 2019, §2.3
 */
export function bubbleFraction(s: Schedule): number {
  const ideal = Math.max(0, ...busyTimes(s));
  return ideal > 0 ? (stepTime(s) - ideal) / ideal : 0;
}

/**
 * The bubble as a fraction of the step time: (step − ideal)/step; (p − 1)/(m + p − 1) for GPipe
 * with equal stages (Huang et al. 2019, §2.3).
 * @example bubbleFractionOfStep(gpipeSchedule(4, 8)) // 0.2727… = 3/11
 */
export function bubbleFractionOfStep(s: Schedule): number {
  const T = stepTime(s);
  return T > 0 ? (T - Math.max(0, ...busyTimes(s))) / T : 0;
}

/**
 * Most micro-batches each stage holds activations for at once (chunk passes count 1/v).
 * GPipe: m on every stage; 1F1B: min(p − s, m) on stage s.
 * @returns one number per stage
 * @example peakInFlight(oneFOneBSchedule(4, 8)) // [4, 3, 2, 1]
 */
export function peakInFlight(s: Schedule): number[] {
  return inFlightTimeline(s).map((pts) => Math.max(0, ...pts.map((x) => x.inFlight)));
}

/**
 * The closed-form bubble, as a fraction of the ideal time, with equal stages, no send cost and
 * (for ZB-H1) F = B = W: naive p − 1; GPipe and 1F1B (p − 1)/m; interleaved (p − 1)/(v·m)
 * (with Megatron's default micro-batch group size N = p); ZB-H1 (p − 1)/(3m) for m ≥ p and
 * (2p − m − 1)/(3m) for m < p. The last comes from Qi et al.'s step for m ≤ p,
 * (m + p − 1)(T_F + T_B) + T_W (Appendix H), against the ideal 3m: with fewer micro-batches than
 * stages the W passes cannot fill the ramp. Both ZB-H1 forms agree at m = p, and the
 * event-list simulator ({@link zbH1Schedule}) measures exactly these values.
 * @param name the schedule; @param p stages; @param m micro-batches; @param v chunks per device (interleaved)
 * @returns the bubble / ideal time
 * @throws {RangeError} `m must be an integer >= 1, got 0`; `schedule must be one of naive, gpipe, 1f1b, interleaved, zb-h1, got "x"`;
 *   for zb-h2, zb-v, dualpipe, dualpipe-v: `closedFormBubble covers the step-based forms (naive, gpipe, 1f1b, interleaved, zb-h1); the sources give zb-h2's bubble inside each device's span: use scheduleClosedForm`
 * @example closedFormBubble("interleaved", 4, 8, 2) // 0.1875 = 3/16
 * @example closedFormBubble("zb-h1", 4, 2) // 0.8333… = (8 − 2 − 1)/6, as zbH1Schedule(4, 2) measures
 * @see Narayanan et al. 2021, §2.2.1–2.2.2; Qi et al. 2023, §2.1, Table 2 (m ≥ p) and Appendix H (m ≤ p)
 */
export function closedFormBubble(name: ScheduleName, p: number, m: number, v = 1): number {
  for (const [k, x] of [["p", p], ["m", m], ["v", v]] as const) if (!Number.isInteger(x) || x < 1) throw new RangeError(`${k} must be an integer >= 1, got ${x}`);
  switch (name) {
    case "naive": return p - 1;
    case "gpipe": case "1f1b": return (p - 1) / m;
    case "interleaved": return (p - 1) / (v * m);
    case "zb-h1": return m >= p ? (p - 1) / (3 * m) : (2 * p - m - 1) / (3 * m);
    case "zb-h2": case "zb-v": case "dualpipe": case "dualpipe-v":
      throw new RangeError(`closedFormBubble covers the step-based forms (naive, gpipe, 1f1b, interleaved, zb-h1); the sources give ${name}'s bubble inside each device's span: use scheduleClosedForm`);
    default: throw new RangeError(`schedule must be one of naive, gpipe, 1f1b, interleaved, zb-h1, got ${JSON.stringify(name)}`);
  }
}
