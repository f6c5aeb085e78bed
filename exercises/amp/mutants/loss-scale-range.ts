import type { lossScaleRange } from "../loss-scale-range.js";
import type { Mutant } from "../../harness/index.js";

type F = typeof lossScaleRange;

interface Options { overflowAt?: number; underflowTieUp?: boolean; countZeros?: boolean; spread?: boolean; noCheck?: boolean; maxAbove?: boolean; nanIgnored?: boolean; log2Round?: boolean }

/** By definition, k by k, with the mutants' own fp16 thresholds. */
const make = (o: Options = {}): F => (grads, frac) => {
  if (!o.noCheck && (typeof frac !== "number" || !(frac >= 0 && frac <= 1))) throw new RangeError(`maxUnderflowFraction must be a number in [0, 1], got ${frac}`);
  const g = Array.from(grads);
  if (!o.nanIgnored && g.some((x) => !Number.isFinite(x))) return null;
  const vals = g.filter((x) => Number.isFinite(x) && (o.countZeros || x !== 0));
  if (o.spread && vals.length) Math.max(...vals.map(Math.abs));
  const over = o.overflowAt ?? 65520;
  let lo: number | null = null, hi: number | null = null;
  for (let k = -126; k <= 127; k++) {
    const s = o.log2Round ? 2 ** Math.round(k) : 2 ** k;
    const overflow = vals.some((x) => (o.maxAbove ? Math.abs(x) * s > over : Math.abs(x) * s >= over));
    const under = vals.filter((x) => Math.abs(x) * s < 2 ** -25 || (!o.underflowTieUp && Math.abs(x) * s === 2 ** -25) || x === 0).length;
    if (!overflow && under <= frac * vals.length) { if (lo === null) lo = k; hi = k; }
  }
  return lo === null ? null : { minLog2: lo, maxLog2: hi! };
};

export const mutants: Record<string, Mutant<F>> = {
  "overflow from above 65504 (the largest value), not from 65520 after rounding": { impl: make({ overflowAt: 65504, maxAbove: true }), caughtBy: "overflow: 65504 fits, 65520 rounds to Infinity" },
  "the tie at 2^−25 rounds up to the smallest subnormal": { impl: make({ underflowTieUp: true }), caughtBy: "underflow: the tie at 2^−25 rounds to 0" },
  "fp32 zeros counted as underflows": { impl: make({ countZeros: true }), caughtBy: ["the allowed share of underflows", "no scale fits: null"] },
  "NaN and infinite gradients ignored": { impl: make({ nanIgnored: true }), caughtBy: "no scale fits: null" },
  "the largest gradient found with Math.max(...grads)": { impl: make({ spread: true }), caughtBy: "a million gradients" },
  "no check of maxUnderflowFraction": { impl: make({ noCheck: true }), caughtBy: "bad input: a RangeError naming maxUnderflowFraction" },
};
