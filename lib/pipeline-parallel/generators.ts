/**
 * Schedule generators: the order of passes on each device, timed by {@link timeOrders}.
 */
import { checkShape, SCHEDULE_NAMES, UNIT_TIMES, type Op, type Schedule, type ScheduleName, type StageTimes } from "./schedule.js";
import { timeOrders } from "./timeOrders.js";
import { zbH2Schedule } from "./zbH2.js";
import { zbVSchedule } from "./zbV.js";
import { dualPipeSchedule, dualPipeVSchedule } from "./dualPipe.js";

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
 * Checks the shape of an interleaved schedule as Megatron-LM does since commit 4295be1 (2024-11-01):
 * the micro-batch group size N (`--microbatch-group-size-per-virtual-pipeline-stage`, default p)
 * lies in [p, m], and the last group, m mod N, is empty or holds at least p micro-batches. With the
 * default N = p this is the older rule: m a multiple of p.
 * @param p stages; @param m micro-batches; @param v chunks per device; @param microbatchGroupSize N (default p)
 * @throws {RangeError} `m must be >= p = 4 for the interleaved schedule, got m = 2`;
 *   `m must be a multiple of p = 4 for the interleaved schedule with the default microbatch group size N = p (Megatron-LM's rule), got m = 6`;
 *   `microbatchGroupSize must be from p = 4 to m = 6 (Megatron-LM's --microbatch-group-size-per-virtual-pipeline-stage), got 3`;
 *   `m mod microbatchGroupSize must be 0 or >= p = 4 (Megatron-LM's rule), got 10 mod 4 = 2`
 * @example checkInterleaved(4, 10, 2, 5) // passes: groups of 5 micro-batches
 * @see Megatron-LM megatron/core/pipeline_parallel/schedules.py `forward_backward_pipelining_with_interleaving` and model_parallel_config.py `microbatch_group_size_per_vp_stage` at d98e8a6
 */
export function checkInterleaved(p: number, m: number, v: number, microbatchGroupSize = p): void {
  checkShape(p, m, v);
  const N = microbatchGroupSize;
  if (!Number.isInteger(N) || N < 1) throw new RangeError(`microbatchGroupSize must be an integer >= 1, got ${N}`);
  if (N === p) {
    if (m < p) throw new RangeError(`m must be >= p = ${p} for the interleaved schedule, got m = ${m}`);
    if (m % p !== 0) throw new RangeError(`m must be a multiple of p = ${p} for the interleaved schedule with the default microbatch group size N = p (Megatron-LM's rule), got m = ${m}`);
    return;
  }
  if (N < p || N > m) throw new RangeError(`microbatchGroupSize must be from p = ${p} to m = ${m} (Megatron-LM's --microbatch-group-size-per-virtual-pipeline-stage), got ${N}`);
  if (m % N !== 0 && m % N < p) throw new RangeError(`m mod microbatchGroupSize must be 0 or >= p = ${p} (Megatron-LM's rule), got ${m} mod ${N} = ${m % N}`);
}

/**
 * Megatron-LM's schedule table: the k-th forward of a device runs micro-batch `microBatch` on
 * chunk `chunk`. Micro-batches go in groups of N, each group through chunk 0, then chunk 1, …;
 * the last group takes whatever is left (N to N + p − 1 micro-batches, or fewer when N = m).
 * @example interleavedTable(5, 2, 3).map((x) => `${x.microBatch}${x.chunk}`) // ["00", "10", "20", "01", "11", "21", "30", "40", "31", "41"]
 * @see Megatron-LM schedules.py `get_schedule_table` (the PP2 N3M5 VP2 example in its comments) at d98e8a6
 */
export function interleavedTable(m: number, v: number, N: number): { microBatch: number; chunk: number }[] {
  const table: { microBatch: number; chunk: number }[] = [];
  for (let first = 0; first < m; first += N) {
    const last = first + N >= m ? m : first + N; // the last group runs to m
    for (let chunk = 0; chunk < v; chunk++) for (let j = first; j < last; j++) table.push({ microBatch: j, chunk });
    if (last === m) break;
  }
  return table;
}

/**
 * Interleaved 1F1B (Narayanan et al. 2021): each device holds v model chunks (virtual stage
 * k = chunk·p + device), and micro-batches go around the devices v times. Passes are v times
 * shorter, so the bubble shrinks to (p − 1)/(v·m) of the ideal time (with N = p), for v times more sends.
 * The order follows Megatron-LM at d98e8a6 (since 4295be1): forwards in groups of N micro-batches
 * per chunk ({@link interleavedTable}), a warm-up of 2(p − s − 1) + (v − 1)·N forwards on device s
 * (capped at m·v), then one forward and one backward alternately; backwards take the chunks in reverse.
 * A larger N than p keeps more micro-batches in flight on the first stage.
 * @param p stages (integer ≥ 1); @param m micro-batches; @param v chunks per device (integer ≥ 1)
 * @param times per-stage pass times in ms for the whole stage (each chunk takes 1/v)
 * @param microbatchGroupSize N, Megatron's `--microbatch-group-size-per-virtual-pipeline-stage` (default p)
 * @returns the schedule
 * @throws {RangeError} from {@link checkInterleaved}, e.g. `m must be a multiple of p = 4 for the interleaved schedule with the default microbatch group size N = p (Megatron-LM's rule), got m = 6`
 * @example stepTime(interleavedSchedule(4, 8, 2)) // 19 = 16 + (4 − 1)·2/2
 * @see Narayanan et al. 2021, §2.2.2 and Fig. 4 (bottom); Megatron-LM, megatron/core/pipeline_parallel/schedules.py (`get_pp_rank_microbatches`, `get_schedule_table`) at d98e8a6
 */
export function interleavedSchedule(p: number, m: number, v: number, times: StageTimes = UNIT_TIMES, microbatchGroupSize = p): Schedule {
  checkInterleaved(p, m, v, microbatchGroupSize);
  const total = m * v;
  const table = interleavedTable(m, v, microbatchGroupSize);
  const fwd = (k: number) => F(table[k].microBatch, table[k].chunk);
  const bwd = (k: number) => B(table[k].microBatch, v - 1 - table[k].chunk);
  const orders = Array.from({ length: p }, (_, s) => {
    const warm = Math.min((p - s - 1) * 2 + (v - 1) * microbatchGroupSize, total);
    const order: Op[] = [];
    for (let k = 0; k < warm; k++) order.push(fwd(k));
    for (let i = 0; i < total - warm; i++) order.push(fwd(warm + i), bwd(i));
    for (let k = total - warm; k < total; k++) order.push(bwd(k));
    return order;
  });
  return { name: "interleaved", p, m, v, splitBackward: false, events: timeOrders(orders, p, m, v, times, false), ...(microbatchGroupSize !== p ? { microbatchGroupSize } : {}) };
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
export interface ScheduleOptions {
  p: number;
  m: number;
  /** Chunks per device ("interleaved" only). */
  v?: number;
  times?: StageTimes;
  /** Megatron's micro-batch group size N ("interleaved" only; default p). */
  microbatchGroupSize?: number;
}

/**
 * Any schedule by name (v is used by "interleaved" only; ZB-V and DualPipe always have v = 2).
 * @throws {RangeError} `schedule must be one of naive, gpipe, 1f1b, interleaved, zb-h1, zb-h2, zb-v, dualpipe, dualpipe-v, got "x"`; the generator's own errors
 * @example generateSchedule("1f1b", { p: 2, m: 4 }).events.length // 16
 */
export function generateSchedule(name: ScheduleName, o: ScheduleOptions): Schedule {
  const t = o.times;
  switch (name) {
    case "naive": return naiveSchedule(o.p, o.m, t);
    case "gpipe": return gpipeSchedule(o.p, o.m, t);
    case "1f1b": return oneFOneBSchedule(o.p, o.m, t);
    case "interleaved": return interleavedSchedule(o.p, o.m, o.v ?? 1, t, o.microbatchGroupSize);
    case "zb-h1": return zbH1Schedule(o.p, o.m, t);
    case "zb-h2": return zbH2Schedule(o.p, o.m, t);
    case "zb-v": return zbVSchedule(o.p, o.m, t);
    case "dualpipe": return dualPipeSchedule(o.p, o.m, t);
    case "dualpipe-v": return dualPipeVSchedule(o.p, o.m, t);
    default: throw new RangeError(`schedule must be one of ${SCHEDULE_NAMES.join(", ")}, got ${JSON.stringify(name)}`);
  }
}
