import type { bubbleFractionOf } from "../bubble-fraction.js";

type F = typeof bubbleFractionOf;
type Ev = Parameters<F>[0][number];
const guard = (es: Ev[]) => {
  if (!es.length) throw new RangeError("events must not be empty");
  es.forEach((e, i) => {
    if (!Number.isFinite(e.start) || e.start < 0) throw new RangeError(`events[${i}].start must be a finite number >= 0, got ${e.start}`);
    if (!(e.end >= e.start)) throw new RangeError(`events[${i}].end must be >= start, got ${e.end} < ${e.start}`);
  });
};
const busy = (es: Ev[]) => { const b: number[] = []; for (const e of es) b[e.stage] = (b[e.stage] ?? 0) + e.end - e.start; return b.map((x) => x ?? 0); };

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "the closed form (p − 1)/m instead of measuring": {
    impl: (es) => { guard(es); const p = Math.max(...es.map((e) => e.stage)) + 1; const m = Math.max(...es.map((e) => e.microBatch)) + 1; return (p - 1) / m; },
    caughtBy: ["unequal stages, W passes, shuffled events"],
  },
  "GPipe's fraction of the step instead of the ideal": {
    impl: (es) => { guard(es); const T = Math.max(...es.map((e) => e.end)); const ideal = Math.max(...busy(es)); return (T - ideal) / T; },
    caughtBy: ["the stub's example", "equal stages: the closed forms"],
  },
  "average stage instead of the busiest": {
    impl: (es) => { guard(es); const T = Math.max(...es.map((e) => e.end)); const b = busy(es); const ideal = b.reduce((a, x) => a + x, 0) / b.length; return (T - ideal) / ideal; },
    caughtBy: "unequal stages, W passes, shuffled events",
  },
  "takes the last event's end as the step time (assumes sorted events)": {
    impl: (es) => { guard(es); const T = es[es.length - 1].end; const ideal = Math.max(...busy(es)); return (T - ideal) / ideal; },
    caughtBy: "unequal stages, W passes, shuffled events",
  },
  "no input checks": {
    impl: (es) => { if (!es.length) return 0; const T = Math.max(...es.map((e) => e.end)); const ideal = Math.max(...busy(es)); return ideal > 0 ? (T - ideal) / ideal : 0; },
    caughtBy: "bad input",
  },
};
