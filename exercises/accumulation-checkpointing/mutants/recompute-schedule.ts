import type { Mutant } from "../../harness/index.js";
import type { recomputeSchedule } from "../recompute-schedule.js";

type F = typeof recomputeSchedule;

function check(n: number, segments: number[], o: { errorClass?: ErrorConstructor; integers?: boolean } = {}): void {
  const E = o.errorClass ?? RangeError, whole = o.integers === false ? (x: number) => x >= 1 : (x: number) => Number.isInteger(x) && x >= 1;
  if (!whole(n) || segments.some((s) => !whole(s)) || segments.reduce((a, b) => a + b, 0) !== n) throw new E("bad segments");
}
function starts(segments: number[]): number[] {
  const out: number[] = [];
  segments.reduce((s, len) => { out.push(s); return s + len; }, 0);
  return out;
}
/** The right schedule (after `check`). */
function schedule(n: number, segments: number[]): string[] {
  const st = starts(segments), out: string[] = [], last = segments.length - 1;
  for (let i = 0; i < n; i++) out.push(`F${i}`);
  for (let k = last; k >= 0; k--) {
    if (k !== last) for (let i = st[k]; i < st[k] + segments[k]; i++) out.push(`R${i}`);
    for (let i = st[k] + segments[k] - 1; i >= st[k]; i--) out.push(`B${i}`);
  }
  return out;
}

export const mutants: Record<string, Mutant<F>> = {
  "also recomputes the last segment": {
    impl: (n, segments) => {
      check(n, segments);
      const st = starts(segments), out: string[] = [];
      for (let i = 0; i < n; i++) out.push(`F${i}`);
      for (let k = segments.length - 1; k >= 0; k--) {
        for (let i = st[k]; i < st[k] + segments[k]; i++) out.push(`R${i}`);
        for (let i = st[k] + segments[k] - 1; i >= st[k]; i--) out.push(`B${i}`);
      }
      return out;
    },
    caughtBy: ["no checkpointing", "worked example [2, 2]"],
  },
  "recomputes every checkpointed segment before any backward": {
    impl: (n, segments) => {
      check(n, segments);
      const out: string[] = [];
      for (let i = 0; i < n; i++) out.push(`F${i}`);
      for (let i = 0; i < n - segments[segments.length - 1]; i++) out.push(`R${i}`);
      for (let i = n - 1; i >= 0; i--) out.push(`B${i}`);
      return out;
    },
    caughtBy: "worked example [2, 2]",
  },
  "recomputes a segment in reverse order": {
    impl: (n, segments) => {
      check(n, segments);
      const st = starts(segments), out: string[] = [];
      for (let i = 0; i < n; i++) out.push(`F${i}`);
      for (let k = segments.length - 1; k >= 0; k--) {
        if (k !== segments.length - 1) for (let i = st[k] + segments[k] - 1; i >= st[k]; i--) out.push(`R${i}`);
        for (let i = st[k] + segments[k] - 1; i >= st[k]; i--) out.push(`B${i}`);
      }
      return out;
    },
    caughtBy: "worked example [2, 2]",
  },
  "accepts fractional segment lengths that sum to numLayers": { impl: (n, segments) => { check(n, segments, { integers: false }); return schedule(n, segments); }, caughtBy: "bad segmentations throw" },
  "throws a plain Error instead of a RangeError": { impl: (n, segments) => { check(n, segments, { errorClass: Error }); return schedule(n, segments); }, caughtBy: "bad segmentations throw" },
};
