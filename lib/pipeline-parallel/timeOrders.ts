/**
 * The timing engine: per-device orders of passes in, timed events out.
 */
import { checkShape, opDuration, resolveTimes, type Op, type OpKind, type ScheduleEvent, type StageTimes } from "./schedule.js";
import { checkPlacement, passShare, routeLength, routePosition, routeStep, type Placement } from "./placement.js";

/** Options of {@link timeOrders}. */
export interface TimeOptions {
  /** How chunks sit on devices (default "loop"). */
  placement?: Placement;
  /** Earliest start of the `index`-th pass of `stage`'s order (default 0): an optimizer step or a validation the pass must wait for. */
  notBefore?: (stage: number, index: number) => number;
}

const KI: Record<OpKind, number> = { F: 0, B: 1, W: 2 };

/**
 * Times per-device orders of passes: each pass starts as soon as its device is free and its
 * inputs are there. F at position k of a micro-batch's route needs F at k − 1 (plus a send when
 * that is another device); B at k needs F at k and B at k + 1 (plus a send); W needs its B.
 * An F that carries `with` runs overlapped with that B as one pair: the pair starts when both
 * inputs are there and both passes end together, after `times.overlapped`.
 * @param orders one list of passes per device (length p), in the order the device runs them
 * @param p stages; @param m micro-batches; @param v chunks per device
 * @param times per-stage times (for one micro-batch through the device's share of the model)
 * @param splitBackward whether B and W are separate passes
 * @param o placement and earliest starts
 * @returns events, sorted by start then stage
 * @throws {RangeError} `stage 1's order has F of micro-batch 9, chunk 0, which is not on that micro-batch's route (p = 2, m = 4, v = 1, placement loop)`
 * @throws {Error} `schedule deadlocks: stage 1 waits before F of micro-batch 0, chunk 0, whose input never comes (0 passes ran)` when an order cannot run
 * @example timeOrders([[{kind:"F",microBatch:0,chunk:0},{kind:"B",microBatch:0,chunk:0}]], 1, 1, 1, UNIT_TIMES, false).map(e => [e.kind, e.start, e.end]) // [["F",0,1],["B",1,2]]
 */
export function timeOrders(orders: readonly (readonly Op[])[], p: number, m: number, v: number, times: StageTimes, splitBackward: boolean, o: TimeOptions = {}): ScheduleEvent[] {
  checkShape(p, m, v);
  const layout = { p, m, v, placement: o.placement ?? "loop" };
  checkPlacement(layout);
  const t = resolveTimes(times, p);
  const L = routeLength(layout), share = passShare(layout);
  const ends = [0, 1, 2].map(() => new Float64Array(L * m).fill(NaN));
  const pos = (s: number, op: Op): number => {
    const k = routePosition(layout, s, op.chunk, op.microBatch);
    if (k < 0 || !(op.kind in KI)) throw new RangeError(`stage ${s}'s order has ${op.kind} of micro-batch ${op.microBatch}, chunk ${op.chunk}, which is not on that micro-batch's route (p = ${p}, m = ${m}, v = ${v}, placement ${layout.placement})`);
    return k;
  };
  const hop = (k: number, j: number, s: number) => (routeStep(layout, k, j).stage !== s ? t.sendMs : 0);
  // readiness of one pass: NaN while an input is missing
  const ready = (s: number, op: Op): number => {
    const k = pos(s, op), j = op.microBatch;
    if (op.kind === "F") return k === 0 ? 0 : ends[0][(k - 1) * m + j] + hop(k - 1, j, s);
    if (op.kind === "B") {
      const f = ends[0][k * m + j];
      return k === L - 1 ? f : Math.max(f, ends[1][(k + 1) * m + j] + hop(k + 1, j, s));
    }
    return ends[1][k * m + j];
  };
  const idx = new Array(p).fill(0), free = new Array(p).fill(0);
  const events: ScheduleEvent[] = [];
  let remaining = orders.reduce((a, x) => a + x.length, 0), done = 0;
  const record = (s: number, op: Op, start: number, end: number, overlapped: boolean) => {
    ends[KI[op.kind]][pos(s, op) * m + op.microBatch] = end;
    events.push({ stage: s, microBatch: op.microBatch, kind: op.kind, chunk: op.chunk, start, end, ...(op.full ? { full: true } : {}), ...(overlapped ? { overlapped: true } : {}) });
  };
  while (remaining > 0) {
    let progressed = false;
    for (let s = 0; s < p; s++) {
      const order = orders[s];
      while (idx[s] < order.length) {
        const op = order[idx[s]], pair = op.with;
        if (pair && (op.kind !== "F" || pair.kind !== "B")) throw new RangeError(`stage ${s}'s order pairs ${op.kind} of micro-batch ${op.microBatch} with ${pair.kind} of micro-batch ${pair.microBatch}: an overlapped pair is an F with a B`);
        const r = pair ? Math.max(ready(s, op), ready(s, pair)) : ready(s, op);
        if (Number.isNaN(r)) break;
        const start = Math.max(free[s], r, o.notBefore ? o.notBefore(s, idx[s]) : 0);
        const end = start + opDuration({ kind: op.kind, full: op.full, overlapped: !!pair }, s, share, t, splitBackward);
        record(s, op, start, end, !!pair);
        if (pair) record(s, pair, start, end, true);
        free[s] = end;
        idx[s]++; remaining--; done++;
        progressed = true;
      }
    }
    if (!progressed) {
      const s = idx.findIndex((i, d) => i < orders[d].length);
      const op = orders[s][idx[s]];
      throw new Error(`schedule deadlocks: stage ${s} waits before ${op.kind} of micro-batch ${op.microBatch}, chunk ${op.chunk}, whose input never comes (${done} passes ran)`);
    }
  }
  return events.sort((a, b) => a.start - b.start || a.stage - b.stage);
}
