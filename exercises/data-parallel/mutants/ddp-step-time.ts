import type { Mutant } from "../../harness/index.js";
import type { ddpStepTimeMs } from "../ddp-step-time.js";

type F = typeof ddpStepTimeMs;
type Step = Parameters<F>[0];
const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);

function check(s: Step) {
  for (const k of ["forwardMs", "backwardMs", "optimizerMs"] as const) {
    if (typeof s[k] !== "number" || !Number.isFinite(s[k]) || s[k] < 0) throw new RangeError(`${k} must be a finite number >= 0, got ${s[k]}`);
  }
  s.buckets.forEach((b, i) => {
    for (const k of ["readyMs", "allReduceMs"] as const) {
      if (typeof b[k] !== "number" || !Number.isFinite(b[k]) || b[k] < 0) throw new RangeError(`buckets[${i}].${k} must be a finite number >= 0, got ${b[k]}`);
    }
    if (b.readyMs > s.backwardMs) throw new RangeError(`buckets[${i}].readyMs must be <= backwardMs (${s.backwardMs}), got ${b.readyMs}`);
  });
}
/** The right schedule over `buckets` as given. */
function stepTime(s: Step, buckets = s.buckets) {
  let free = 0;
  for (const b of buckets) free = Math.max(s.overlap ? b.readyMs : s.backwardMs, free) + b.allReduceMs;
  return s.forwardMs + Math.max(s.backwardMs, free) + s.optimizerMs;
}

export const mutants: Record<string, Mutant<F>> = {
  "ignores readiness: forward + max(backward, Σ all-reduce) + optimizer": {
    impl: (s) => { check(s); return s.forwardMs + (s.overlap ? Math.max(s.backwardMs, sum(s.buckets.map((b) => b.allReduceMs))) : s.backwardMs + sum(s.buckets.map((b) => b.allReduceMs))) + s.optimizerMs; },
    caughtBy: "worked example with overlap",
  },
  "all-reduces run in parallel (no queue on the stream)": {
    impl: (s) => { check(s); return s.forwardMs + Math.max(s.backwardMs, ...s.buckets.map((b) => (s.overlap ? b.readyMs : s.backwardMs) + b.allReduceMs)) + s.optimizerMs; },
    caughtBy: "one communication stream: all-reduces queue",
  },
  "overlap flag ignored (always overlaps)": {
    impl: (s) => { check(s); return stepTime({ ...s, overlap: true }); },
    caughtBy: "without overlap",
  },
  "sorts the buckets by ready time before scheduling them": {
    impl: (s) => { check(s); return stepTime(s, s.buckets.slice().sort((a, b) => a.readyMs - b.readyMs)); },
    caughtBy: "buckets not in ready order",
  },
  "no check of the precondition readyMs <= backwardMs": {
    impl: (s) => { check({ ...s, buckets: s.buckets.map((b) => ({ ...b, readyMs: Math.min(b.readyMs, s.backwardMs) })) }); return stepTime(s); },
    caughtBy: "a bucket ready after backward is rejected",
  },
  "no input checks at all": {
    impl: (s) => stepTime(s),
    caughtBy: ["bad durations throw a RangeError naming the field", "a bucket ready after backward is rejected"],
  },
  "checks with a plain Error": {
    impl: (s) => { try { check(s); } catch (e) { throw new Error((e as Error).message); } return stepTime(s); },
    caughtBy: "bad durations throw a RangeError naming the field",
  },
};
