import type { recomputeSchedule } from "../recompute-schedule.js";

function check(n: number, segments: number[]): void {
  if (!Number.isInteger(n) || n < 1 || segments.some((s) => !Number.isInteger(s) || s < 1) || segments.reduce((a, b) => a + b, 0) !== n) throw new RangeError("bad segments");
}
function starts(segments: number[]): number[] {
  const out: number[] = [];
  segments.reduce((s, len) => { out.push(s); return s + len; }, 0);
  return out;
}

export const mutants: Record<string, typeof recomputeSchedule> = {
  "also recomputes the last segment": (n, segments) => {
    check(n, segments);
    const st = starts(segments), out: string[] = [];
    for (let i = 0; i < n; i++) out.push(`F${i}`);
    for (let k = segments.length - 1; k >= 0; k--) {
      for (let i = st[k]; i < st[k] + segments[k]; i++) out.push(`R${i}`);
      for (let i = st[k] + segments[k] - 1; i >= st[k]; i--) out.push(`B${i}`);
    }
    return out;
  },
  "recomputes every checkpointed segment before any backward": (n, segments) => {
    check(n, segments);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(`F${i}`);
    for (let i = 0; i < n - segments[segments.length - 1]; i++) out.push(`R${i}`);
    for (let i = n - 1; i >= 0; i--) out.push(`B${i}`);
    return out;
  },
  "recomputes a segment in reverse order": (n, segments) => {
    check(n, segments);
    const st = starts(segments), out: string[] = [];
    for (let i = 0; i < n; i++) out.push(`F${i}`);
    for (let k = segments.length - 1; k >= 0; k--) {
      if (k !== segments.length - 1) for (let i = st[k] + segments[k] - 1; i >= st[k]; i--) out.push(`R${i}`);
      for (let i = st[k] + segments[k] - 1; i >= st[k]; i--) out.push(`B${i}`);
    }
    return out;
  },
};
