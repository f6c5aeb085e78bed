/**
 * The newest schedules side by side: what their event lists measure against what their sources say.
 */
import { type Schedule, type ScheduleName, type StageTimes } from "./schedule.js";
import { oneFOneBSchedule, zbH1Schedule } from "./generators.js";
import { zbH2Schedule } from "./zbH2.js";
import { zbVSchedule } from "./zbV.js";
import { dualPipeSchedule, dualPipeVSchedule } from "./dualPipe.js";
import { busyTimes, peakInFlight, stageSpans, stepTime } from "./measures.js";
import { routeLength, routeStep } from "./placement.js";
import { scheduleClosedForm, type ScheduleClosedForm } from "./scheduleClosedForm.js";

/**
 * Activation messages between devices in one step: each micro-batch's forward and backward cross
 * every boundary of its route where the device changes (a V's turn stays on one device).
 * @example pipelineSends(zbVSchedule(4, 8)) // 96 = 2·8·2(4 − 1), twice 1F1B's 48
 */
export function pipelineSends(s: Schedule): number {
  const l = { p: s.p, m: s.m, v: s.v, placement: s.placement };
  let n = 0;
  for (let j = 0; j < s.m; j++) for (let k = 1; k < routeLength(l); k++) if (routeStep(l, k, j).stage !== routeStep(l, k - 1, j).stage) n += 2;
  return n;
}

/**
 * Parameters each device holds, relative to 1F1B on the same devices: chunks per device × the
 * model's share per chunk × p. 1 for loop and V placements, 2 for DualPipe (two stages of p).
 * @example parametersPerDevice(dualPipeSchedule(4, 8)) // 2
 */
export function parametersPerDevice(s: Schedule): number {
  return (s.v * s.p) / routeLength({ p: s.p, m: s.m, v: s.v, placement: s.placement });
}

/** One row of {@link compareSchedules}. */
export interface ScheduleComparison {
  name: ScheduleName;
  /** The generated schedule, or the error that refused these p and m. */
  schedule?: Schedule;
  error?: string;
  /** Idle time inside the busiest device's span (largest span − busiest device's compute), ms. */
  spanBubbleMs?: number;
  /** Idle time of the step from the first pass to the last (what a synchronised optimizer step waits), ms. */
  stepBubbleMs?: number;
  peakInFlight?: number;
  parameters?: number;
  sends?: number;
  closed: ScheduleClosedForm | { error: string };
}

/**
 * Generates 1F1B, ZB-H1, ZB-H2, ZB-V, DualPipe and DualPipeV for the same p devices, m
 * micro-batches and times, and measures each from its events beside its source's closed form.
 * @param p devices; @param m micro-batches; @param times one device's times (F, B, W, F&B, sends)
 * @returns one row per schedule; a schedule that refuses these p and m carries its error
 * @example compareSchedules(4, 8, { forward: 1, backward: 1, weight: 1 }).map(r => r.spanBubbleMs) // [9, 3, 0, 0, 2, undefined]: DualPipeV needs m ≥ 2p
 * @see {@link scheduleClosedForm} for the sources
 */
export function compareSchedules(p: number, m: number, times: StageTimes): ScheduleComparison[] {
  const gens: [ScheduleName, () => Schedule][] = [
    ["1f1b", () => oneFOneBSchedule(p, m, times)], ["zb-h1", () => zbH1Schedule(p, m, times)], ["zb-h2", () => zbH2Schedule(p, m, times)],
    ["zb-v", () => zbVSchedule(p, m, times)], ["dualpipe", () => dualPipeSchedule(p, m, times)], ["dualpipe-v", () => dualPipeVSchedule(p, m, times)],
  ];
  return gens.map(([name, make]) => {
    let closed: ScheduleComparison["closed"];
    try { closed = scheduleClosedForm(name, p, times); } catch (e) { closed = { error: (e as Error).message }; }
    let s: Schedule;
    try { s = make(); } catch (e) { return { name, error: (e as Error).message, closed }; }
    const ideal = Math.max(...busyTimes(s));
    return {
      name, schedule: s, closed,
      spanBubbleMs: Math.max(...stageSpans(s)) - ideal, stepBubbleMs: stepTime(s) - ideal,
      peakInFlight: Math.max(...peakInFlight(s)), parameters: parametersPerDevice(s), sends: pipelineSends(s) / (2 * m * Math.max(1, p - 1)),
    };
  });
}
