import type { ddpStepTimeMs } from "../ddp-step-time.js";

type F = typeof ddpStepTimeMs;
const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);

export const mutants: Record<string, F> = {
  "ignores readiness: forward + max(backward, Σ all-reduce) + optimizer": (s) =>
    s.forwardMs + (s.overlap ? Math.max(s.backwardMs, sum(s.buckets.map((b) => b.allReduceMs))) : s.backwardMs + sum(s.buckets.map((b) => b.allReduceMs))) + s.optimizerMs,
  "all-reduces run in parallel (no queue on the stream)": (s) => {
    const ends = s.buckets.map((b) => (s.overlap ? b.readyMs : s.backwardMs) + b.allReduceMs);
    return s.forwardMs + Math.max(s.backwardMs, ...ends) + s.optimizerMs;
  },
  "overlap flag ignored (always overlaps)": (s) => {
    let free = 0;
    for (const b of s.buckets) free = Math.max(b.readyMs, free) + b.allReduceMs;
    return s.forwardMs + Math.max(s.backwardMs, free) + s.optimizerMs;
  },
};
