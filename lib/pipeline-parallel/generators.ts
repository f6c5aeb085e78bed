/**
 * Schedule generators: the order of passes on each device, timed by {@link timeOrders}.
 */
import { checkShape, timeOrders, UNIT_TIMES, type Op, type Schedule, type ScheduleName, type StageTimes } from "./schedule.js";

const F = (microBatch: number, chunk = 0): Op => ({ kind: "F", microBatch, chunk });
const B = (microBatch: number, chunk = 0): Op => ({ kind: "B", microBatch, chunk });
const W = (microBatch: number, chunk = 0): Op => ({ kind: "W", microBatch, chunk });

/**
 * Naive model parallelism with gradient accumulation: one micro-batch at a time goes forward
 * through all p stages and back before the next one starts, so only one device works at a time.
 * @param p stages (integer ≥ 1); @param m micro-batches (integer ≥ 1)
 * @param times per-stage pass times in ms (default F = B = 1)
 * @returns the schedule; its step time is m·Σ_s(F_s + B_s) + 2(p−1)·m sends
 * @throws {RangeError} `p must be an integer >= 1, got 0` (same for m)
 * @example naiveSchedule(2, 1).events.map(e => `${e.kind}${e.stage}@${e.start}`) // ["F0@0", "F1@1", "B1@2", "B0@3"]
 * @see Huang et al. 2019 (GPipe), Fig. 2(b): naive model parallelism
 */
export function naiveSchedule(p: number, m: number, times: StageTimes = UNIT_TIMES): Schedule {
  checkShape(p, m);
  const orders = Array.from({ length: p }, () => Array.from({ length: m }, (_, j) => [F(j), B(j)]).flat());
  return { name: "naive", p, m, v: 1, splitBackward: false, events: timeOrders(orders, p, m, 1, times, false) };
}

/**
 * GPipe: every stage runs the forwards of all m micro-batches, then their backwards (in micro-batch
 * order); gradients are accumulated and applied once at the end of the step (a pipeline flush).
 * With equal stages and no send cost the step lasts (m + p − 1)(F + B), the ideal m(F + B) plus a
 * bubble of (p − 1)(F + B): (p − 1)/m of the ideal time. Every stage holds all m micro-batches'
 * activations before its first backward.
 * @param p stages (integer ≥ 1); @param m micro-batches (integer ≥ 1)
 * @param times per-stage pass times in ms (default F = B = 1)
 * @returns the schedule
 * @throws {RangeError} `m must be an integer >= 1, got 0`
 * @example stepTime(gpipeSchedule(4, 8)) // 22 = (8 + 4 − 1)·2
 * @see Huang et al. 2019, "GPipe", §2.2–2.3 and Fig. 2(c)
 */
export function gpipeSchedule(p: number, m: number, times: StageTimes = UNIT_TIMES): Schedule {
  checkShape(p, m);
  const orders = Array.from({ length: p }, () => [...Array.from({ length: m }, (_, j) => F(j)), ...Array.from({ length: m }, (_, j) => B(j))]);
  return { name: "gpipe", p, m, v: 1, splitBackward: false, events: timeOrders(orders, p, m, 1, times, false) };
}

/**
 * The order of passes of 1F1B (PipeDream-Flush) on stage s: min(p − s − 1, m) warm-up forwards,
 * then one forward and one backward alternately, then the remaining backwards.
 * @example oneFOneBOrder(2, 0, 3).map(o => o.kind + o.microBatch) // ["F0", "F1", "B0", "F2", "B1", "B2"]
 */
export function oneFOneBOrder(p: number, s: number, m: number): Op[] {
  const warm = Math.min(p - s - 1, m);
  const order: Op[] = [];
  for (let j = 0; j < warm; j++) order.push(F(j));
  for (let i = 0; i < m - warm; i++) order.push(F(warm + i), B(i));
  for (let j = m - warm; j < m; j++) order.push(B(j));
  return order;
}

/**
 * 1F1B, also called PipeDream-Flush: after a warm-up of p − s − 1 forwards, stage s alternates one
 * forward and one backward, so it never holds more than p − s micro-batches' activations (≤ p),
 * against m for GPipe. The bubble is the same as GPipe's, (p − 1)/m of the ideal time.
 * Works for any m ≥ 1 (warm-up is cut to m).
 * @param p stages (integer ≥ 1); @param m micro-batches (integer ≥ 1)
 * @param times per-stage pass times in ms (default F = B = 1)
 * @returns the schedule
 * @throws {RangeError} `p must be an integer >= 1, got 1.5`
 * @example stepTime(oneFOneBSchedule(4, 8)) // 22, as GPipe
 * @see Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM", §2.2.1 and Fig. 4 (top); Narayanan et al. 2021 (PipeDream-2BW), §3 (PipeDream-Flush)
 */
export function oneFOneBSchedule(p: number, m: number, times: StageTimes = UNIT_TIMES): Schedule {
  checkShape(p, m);
  const orders = Array.from({ length: p }, (_, s) => oneFOneBOrder(p, s, m));
  return { name: "1f1b", p, m, v: 1, splitBackward: false, events: timeOrders(orders, p, m, 1, times, false) };
}

/**
 * Checks the shape of an interleaved schedule: m a multiple of p (so m ≥ p), v ≥ 1.
 * @throws {RangeError} `m must be >= p = 4 for the interleaved schedule, got m = 2`; `m must be a multiple of p = 4 for the interleaved schedule (Megatron-LM's rule), got m = 6`
 */
export function checkInterleaved(p: number, m: number, v: number): void {
  checkShape(p, m, v);
  if (m < p) throw new RangeError(`m must be >= p = ${p} for the interleaved schedule, got m = ${m}`);
  if (m % p !== 0) throw new RangeError(`m must be a multiple of p = ${p} for the interleaved schedule (Megatron-LM's rule), got m = ${m}`);
}

/**
 * Interleaved 1F1B (Narayanan et al. 2021): each device holds v model chunks (virtual stage
 * k = chunk·p + device), and micro-batches go around the devices v times. Passes are v times
 * shorter, so the bubble shrinks to (p − 1)/(v·m) of the ideal time, for v times more sends.
 * The order follows Megatron-LM: forwards in groups of p micro-batches per chunk, warm-up of
 * 2(p − s − 1) + (v − 1)p passes on device s (all passes when m = p), then 1F1B.
 * @param p stages (integer ≥ 1); @param m micro-batches (a multiple of p); @param v chunks per device (integer ≥ 1)
 * @param times per-stage pass times in ms for the whole stage (each chunk takes 1/v)
 * @returns the schedule
 * @throws {RangeError} `m must be a multiple of p = 4 for the interleaved schedule (Megatron-LM's rule), got m = 6`
 * @example stepTime(interleavedSchedule(4, 8, 2)) // 19 = 16 + (4 − 1)·2/2
 * @see Narayanan et al. 2021, §2.2.2 and Fig. 4 (bottom); Megatron-LM, megatron/core/pipeline_parallel/schedules.py (forward_backward_pipelining_with_interleaving)
 */
export function interleavedSchedule(p: number, m: number, v: number, times: StageTimes = UNIT_TIMES): Schedule {
  checkInterleaved(p, m, v);
  const total = m * v;
  const group = p * v;
  const mbOf = (k: number) => Math.floor(k / group) * p + (k % p);
  const chunkOf = (k: number, forward: boolean) => {
    const c = Math.floor((k % group) / p);
    return forward ? c : v - 1 - c;
  };
  const orders = Array.from({ length: p }, (_, s) => {
    const warm = m === p ? total : Math.min((p - s - 1) * 2 + (v - 1) * p, total);
    const order: Op[] = [];
    for (let k = 0; k < warm; k++) order.push(F(mbOf(k), chunkOf(k, true)));
    for (let i = 0; i < total - warm; i++) order.push(F(mbOf(warm + i), chunkOf(warm + i, true)), B(mbOf(i), chunkOf(i, false)));
    for (let k = total - warm; k < total; k++) order.push(B(mbOf(k), chunkOf(k, false)));
    return order;
  });
  return { name: "interleaved", p, m, v, splitBackward: false, events: timeOrders(orders, p, m, v, times, false) };
}

/**
 * The order of ZB-H1 on stage s: 1F1B's order with backward split into B (input gradient) and
 * W (weight gradient); stage s lets up to s weight passes wait, so every stage holds at most p
 * micro-batches' activations (as stage 0 does in 1F1B) while B passes hurry back up the pipeline;
 * the waiting W passes fill the tail.
 * @example zbH1Order(2, 1, 2).map(o => o.kind + o.microBatch) // ["F0", "B0", "F1", "B1", "W0", "W1"]
 */
export function zbH1Order(p: number, s: number, m: number): Op[] {
  const warm = Math.min(p - s - 1, m);
  const order: Op[] = [];
  let nextW = 0, bDone = 0;
  const maybeW = () => { if (bDone - nextW > s) order.push(W(nextW++)); };
  for (let j = 0; j < warm; j++) order.push(F(j));
  for (let i = 0; i < m - warm; i++) { order.push(F(warm + i), B(i)); bDone++; maybeW(); }
  for (let j = m - warm; j < m; j++) { order.push(B(j)); bDone++; if (nextW < bDone) order.push(W(nextW++)); }
  while (nextW < m) order.push(W(nextW++));
  return order;
}

/**
 * ZB-H1 (Qi et al. 2023, "Zero Bubble Pipeline Parallelism"): 1F1B with backward split into
 * B (gradient of the input, on the critical path between stages) and W (gradient of the weights,
 * needed only by the optimizer). With F = B = W the bubble is a third of 1F1B's, at the same
 * peak activation memory (p micro-batches).
 * @param p stages (integer ≥ 1); @param m micro-batches (integer ≥ 1)
 * @param times per-stage pass times in ms; `backward` is B, `weight` is W (default F = B = W = 1)
 * @returns the schedule (splitBackward: true)
 * @throws {RangeError} `m must be an integer >= 1, got -1`
 * @example stepTime(zbH1Schedule(4, 8)) // 27 = 8·3 + (4 − 1)(1 + 1 − 1)
 * @see Qi et al. 2023 (ICLR 2024), §2 and §2.1 "Memory efficient schedule", Fig. 3 (top)
 */
export function zbH1Schedule(p: number, m: number, times: StageTimes = { forward: 1, backward: 1, weight: 1 }): Schedule {
  checkShape(p, m);
  const orders = Array.from({ length: p }, (_, s) => zbH1Order(p, s, m));
  return { name: "zb-h1", p, m, v: 1, splitBackward: true, events: timeOrders(orders, p, m, 1, times, true) };
}

/** Options of {@link generateSchedule}. */
export interface ScheduleOptions { p: number; m: number; v?: number; times?: StageTimes }

/**
 * Any schedule by name (v is used by "interleaved" only).
 * @throws {RangeError} `schedule must be one of naive, gpipe, 1f1b, interleaved, zb-h1, got "x"`
 * @example generateSchedule("1f1b", { p: 2, m: 4 }).events.length // 16
 */
export function generateSchedule(name: ScheduleName, o: ScheduleOptions): Schedule {
  const t = o.times;
  switch (name) {
    case "naive": return naiveSchedule(o.p, o.m, t);
    case "gpipe": return gpipeSchedule(o.p, o.m, t);
    case "1f1b": return oneFOneBSchedule(o.p, o.m, t);
    case "interleaved": return interleavedSchedule(o.p, o.m, o.v ?? 1, t);
    case "zb-h1": return zbH1Schedule(o.p, o.m, t);
    default: throw new RangeError(`schedule must be one of naive, gpipe, 1f1b, interleaved, zb-h1, got ${JSON.stringify(name)}`);
  }
}
