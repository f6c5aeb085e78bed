/**
 * ZB-V (Qi et al. §6): two chunks per device placed in a V, as an event list.
 */
import { checkShape, type Op, type Schedule, type StageTimes } from "./schedule.js";
import { timeOrders } from "./timeOrders.js";

/**
 * The order of ZB-V on device r (0-indexed), chunk 0 running down the devices and chunk 1 back up:
 * 1. warm-up: 2p − 1 forwards, 2(p − r) − 1 of chunk 0 first, then r pairs (chunk 1, chunk 0);
 * 2. p − r groups F-B-W of chunk 1;
 * 3. steady: groups F-B-W of chunk 0 (its F only while some are left) and of chunk 1, alternately,
 *    until every forward has run;
 * 4. cool-down: r pairs of B (chunk 0, chunk 1), then p − r times a B of chunk 0 and one waiting W,
 *    then the waiting W passes; W passes run in the order of their B passes.
 * The counts are Qi et al.'s (§6) and PyTorch's `ScheduleZBVZeroBubble`; the cool-down's W order is
 * the paper's Figure 8 (PyTorch takes chunk 0's W passes first, which changes only their order).
 * With m < 2p − 1 the order is built for 2p − 1 micro-batches and the passes of the missing ones are
 * dropped, as PyTorch does.
 * @param p devices; @param r this device; @param m micro-batches
 * @returns the passes of device r in order (chunk 0 or 1)
 * @example zbVOrder(4, 0, 8).slice(0, 10).map(o => o.kind + o.microBatch + (o.chunk ? "′" : "")).join(" ") // "F0 F1 F2 F3 F4 F5 F6 F0′ B0′ W0′"
 * @see Qi et al. 2023, arXiv:2401.10241 (v2, with ZB-V), §6 and Figure 8; PyTorch torch/distributed/pipelining/schedules.py `ScheduleZBVZeroBubble._calculate_single_rank_operations` at 1fd7abc
 */
export function zbVOrder(p: number, r: number, m: number): Op[] {
  const n = Math.max(m, 2 * p - 1);
  const order: Op[] = [];
  const cnt = { F: [0, 0], B: [0, 0] };
  const waiting: Op[] = []; // W passes in the order of their B passes
  const f = (c: number) => order.push({ kind: "F", microBatch: cnt.F[c]++, chunk: c });
  const b = (c: number, wNow: boolean) => {
    const j = cnt.B[c]++;
    order.push({ kind: "B", microBatch: j, chunk: c });
    const w: Op = { kind: "W", microBatch: j, chunk: c };
    if (wNow) order.push(w); else waiting.push(w);
  };
  for (let i = 0; i < 2 * (p - r) - 1; i++) f(0);
  for (let i = 0; i < r; i++) { f(1); f(0); }
  for (let i = 0; i < p - r; i++) { f(1); b(1, true); }
  while (cnt.F[1] < cnt.F[0] || cnt.F[0] < n) {
    if (cnt.F[0] < n) f(0);
    b(0, true);
    f(1); b(1, true);
  }
  for (let i = 0; i < r; i++) { b(0, false); b(1, false); }
  for (let i = 0; i < p - r; i++) { b(0, false); order.push(waiting.shift()!); }
  order.push(...waiting);
  return order.filter((o) => o.microBatch < m);
}

/**
 * ZB-V (Qi et al., arXiv version, §6): the model cut into 2p chunks, device r holding chunk r and
 * chunk 2p − 1 − r, so each micro-batch runs down the devices and back up (a V) and its backward
 * starts on the device where its forward ended. Each pass covers half a device's layers. With
 * F = B = W every device is busy from its first pass to its last (zero bubble inside each device's
 * span) while it holds at most p micro-batches' activations, 1F1B's peak; the price is twice
 * the pipeline sends.
 * @param p devices (integer ≥ 1); @param m micro-batches (integer ≥ 1)
 * @param times per-device times for the device's two chunks together (default F = B = W = 1)
 * @returns the schedule (v = 2, placement "v", splitBackward: true)
 * @throws {RangeError} `p must be an integer >= 1, got 0`
 * @example peakInFlight(zbVSchedule(4, 8)) // [4, 4, 4, 4]
 * @see Qi et al. 2023, arXiv:2401.10241, §6, Figure 8 and Table 8; sail-sg/zero-bubble-pipeline-parallelism README at 39f2c18 (ZBV: bubble 0, activation 1×, pipeline communication 2×)
 */
export function zbVSchedule(p: number, m: number, times: StageTimes = { forward: 1, backward: 1, weight: 1 }): Schedule {
  checkShape(p, m);
  const orders = Array.from({ length: p }, (_, r) => zbVOrder(p, r, m));
  return { name: "zb-v", p, m, v: 2, placement: "v", splitBackward: true, events: timeOrders(orders, p, m, 2, times, true, { placement: "v" }) };
}
