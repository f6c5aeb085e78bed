import type { gpipeEvents, PassEvent, PipelineTimes } from "../gpipe-schedule.js";
import { gpipeSchedule, timeOrders, type Op } from "../../../lib/pipeline-parallel/index.js";

type F = typeof gpipeEvents;
const orders = (p: number, m: number, backwardOrder: (j: number) => number): Op[][] =>
  Array.from({ length: p }, () => [
    ...Array.from({ length: m }, (_, j) => ({ kind: "F" as const, microBatch: j, chunk: 0 })),
    ...Array.from({ length: m }, (_, j) => ({ kind: "B" as const, microBatch: backwardOrder(j), chunk: 0 })),
  ]);

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "backwards in reverse micro-batch order": {
    impl: (p, m, t) => timeOrders(orders(p, m, (j) => m - 1 - j), p, m, 1, t, false) as PassEvent[],
    caughtBy: ["the stub's example", "exact timings, unequal stages and sends"],
  },
  "forgets the send time": {
    impl: (p, m, t: PipelineTimes) => gpipeSchedule(p, m, { ...t, sendMs: 0 }).events as PassEvent[],
    caughtBy: ["passes the course's validity checker", "exact timings, unequal stages and sends"],
  },
  "lockstep clock: every pass takes the slowest stage's time": {
    impl: (p, m, t) => {
      const r = gpipeSchedule(p, m, { forward: new Array(p).fill(Math.max(...t.forward)), backward: new Array(p).fill(Math.max(...t.backward)), sendMs: t.sendMs });
      return r.events as PassEvent[];
    },
    caughtBy: ["passes the course's validity checker", "exact timings, unequal stages and sends"],
  },
  "no input checks": {
    impl: (p, m, t) => { try { return gpipeSchedule(p, m, t).events as PassEvent[]; } catch { return []; } },
    caughtBy: "bad input names the field",
  },
};
