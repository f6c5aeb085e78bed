import type { oneFOneBEvents, PassEvent } from "../one-f-one-b.js";
import { gpipeSchedule, oneFOneBSchedule, checkShape, resolveTimes, timeOrders, type Op } from "../../../lib/pipeline-parallel/index.js";

type F = typeof oneFOneBEvents;
const Fo = (j: number): Op => ({ kind: "F", microBatch: j, chunk: 0 });
const Bo = (j: number): Op => ({ kind: "B", microBatch: j, chunk: 0 });
/** 1F1B's order with a chosen warm-up and cool-down order. */
function variant(warmup: (p: number, s: number, m: number) => number, reverseCooldown: boolean): F {
  return (p, m, t) => {
    checkShape(p, m); resolveTimes(t, p);
    const orders = Array.from({ length: p }, (_, s) => {
      const w = warmup(p, s, m);
      const o: Op[] = [];
      for (let j = 0; j < w; j++) o.push(Fo(j));
      for (let i = 0; i < m - w; i++) o.push(Fo(w + i), Bo(i));
      const cool = Array.from({ length: w }, (_, k) => m - w + k);
      for (const j of reverseCooldown ? cool.reverse() : cool) o.push(Bo(j));
      return o;
    });
    return timeOrders(orders, p, m, 1, t, false) as PassEvent[];
  };
}

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "GPipe's order: all forwards before any backward": {
    impl: (p, m, t) => gpipeSchedule(p, m, t).events as PassEvent[],
    caughtBy: ["at most min(p − s, m) micro-batches in flight on stage s", "exact timings, unequal stages and sends"],
  },
  "one warm-up forward too many (p − s)": {
    impl: variant((p, s, m) => Math.min(p - s, m), false),
    caughtBy: ["at most min(p − s, m) micro-batches in flight on stage s", "exact timings, unequal stages and sends"],
  },
  "cool-down backwards in reverse micro-batch order": {
    impl: variant((p, s, m) => Math.min(p - s - 1, m), true),
    caughtBy: ["exact timings, unequal stages and sends", "trains lib/nn to one device's weights (p = 2 and 4)"],
  },
  "forgets the send time": {
    impl: (p, m, t) => oneFOneBSchedule(p, m, { ...t, sendMs: 0 }).events as PassEvent[],
    caughtBy: ["passes the course's validity checker", "exact timings, unequal stages and sends"],
  },
  "micro-batch labels of backward passes shifted by one on stage 0": {
    impl: (p, m, t) => oneFOneBSchedule(p, m, t).events.map((e) => (e.stage === 0 && e.kind === "B" ? { ...e, microBatch: (e.microBatch + 1) % m } : e)) as PassEvent[],
    caughtBy: ["passes the course's validity checker", "trains lib/nn to one device's weights (p = 2 and 4)"],
  },
};
