/**
 * ZB-H2, the zero-bubble handcrafted schedule of Qi et al. (§2.2), as an event list.
 */
import { checkShape, type Op, type Schedule, type StageTimes } from "./schedule.js";
import { timeOrders } from "./timeOrders.js";

/**
 * The order of ZB-H2 on stage s: min(2(p − s) − 1, m) warm-up forwards (ZB-H1's p − s − 1 plus
 * p − s more, which fill the bubble before the first B); then, for each micro-batch in turn, its B,
 * a W once 2s weight passes wait (ZB-H1 lets s wait), and the next forward while any is left; the
 * waiting W passes run last. Read from Qi et al.'s Figure 3 (bottom), p = 4, m = 8.
 * @param p stages; @param s this stage (0 … p − 1); @param m micro-batches
 * @returns the passes of stage s in order
 * @example zbH2Order(4, 1, 8).map(o => o.kind + o.microBatch).slice(0, 10).join(" ") // "F0 F1 F2 F3 F4 B0 F5 B1 F6 B2"
 * @see Qi et al. 2023, *Zero Bubble Pipeline Parallelism* (ICLR 2024), §2.2 and Figure 3 (bottom)
 */
export function zbH2Order(p: number, s: number, m: number): Op[] {
  const order: Op[] = [];
  const op = (kind: Op["kind"], microBatch: number): Op => ({ kind, microBatch, chunk: 0 });
  const warm = Math.min(2 * (p - s) - 1, m);
  let nextF = 0, nextW = 0;
  while (nextF < warm) order.push(op("F", nextF++));
  for (let k = 0; k < m; k++) {
    order.push(op("B", k));
    if (k + 1 - nextW > 2 * s) order.push(op("W", nextW++));
    if (nextF < m) order.push(op("F", nextF++));
  }
  while (nextW < m) order.push(op("W", nextW++));
  return order;
}

/**
 * ZB-H2 (Qi et al. 2023, §2.2): ZB-H1 with up to 2p − 1 micro-batches in flight instead of p.
 * The extra warm-up forwards fill the bubble before the first B, and the W passes, moved to the
 * right, fill the one after the last, so each stage's busy span is a parallelogram's row with
 * (p − 1)(F + B − 2W) idle inside it: none when F = B = W (Table 2). The step, from the first pass to
 * the last, still has the ramp of (p − 1) forwards at the start of the last stage: it is the
 * optimizer's synchronisation that {@link simulateOptimizerStep} removes which lets the next
 * iteration fill it.
 * @param p stages (integer ≥ 1); @param m micro-batches (integer ≥ 1; fewer than 2p − 1 cut the warm-up)
 * @param times per-stage times; `backward` is B, `weight` is W (default F = B = W = 1)
 * @returns the schedule (splitBackward: true)
 * @throws {RangeError} `m must be an integer >= 1, got 0`
 * @example stageSpans(zbH2Schedule(4, 8)) // [24, 24, 24, 24]: m(F + B + W) on every stage, no bubble inside
 * @see Qi et al. 2023 (ICLR 2024), §2.2, §2.3, Table 2 and Figure 3 (bottom)
 */
export function zbH2Schedule(p: number, m: number, times: StageTimes = { forward: 1, backward: 1, weight: 1 }): Schedule {
  checkShape(p, m);
  const orders = Array.from({ length: p }, (_, s) => zbH2Order(p, s, m));
  return { name: "zb-h2", p, m, v: 1, splitBackward: true, events: timeOrders(orders, p, m, 1, times, true) };
}
