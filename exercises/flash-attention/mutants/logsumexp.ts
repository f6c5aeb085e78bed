import type { logsumexp } from "../logsumexp.js";

type F = typeof logsumexp;

export const mutants: Record<string, F> = {
  "naive log(sum(exp(x))) overflows": (xs) => Math.log(xs.reduce((s, x) => s + Math.exp(x), 0)),
  "no guard for all −Infinity (NaN)": (xs) => {
    const m = Math.max(-Infinity, ...xs);
    return m + Math.log(xs.reduce((s, x) => s + Math.exp(x - m), 0));
  },
  "returns the max only": (xs) => Math.max(-Infinity, ...xs),
};
