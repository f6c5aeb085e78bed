import type { rhoForWinRate } from "../rho-for-win-rate.js";
import type { Mutant } from "../../harness/index.js";

type F = typeof rhoForWinRate;
interface Options { nonStrict?: boolean; ceilCount?: boolean; ignoreTies?: boolean; keepNegative?: boolean; nextThreshold?: boolean; spread?: boolean; noCheck?: boolean }

const make = (o: Options = {}): F => (m, h, bs, target) => {
  if (!o.noCheck) {
    if (typeof target !== "number" || !(target >= 0 && target <= 1)) throw new RangeError(`target must be a number in [0, 1], got ${target}`);
    if (!(bs > 0) || !Number.isFinite(bs)) throw new RangeError(`bs must be a finite number > 0, got ${bs}`);
    if (h.length !== m.length) throw new RangeError(`h must have ${m.length} elements, got ${h.length}`);
    m.forEach((x, i) => { if (!Number.isFinite(x)) throw new RangeError(`m[${i}] must be finite, got ${x}`); });
    h.forEach((x, i) => { if (!Number.isFinite(x)) throw new RangeError(`h[${i}] must be finite, got ${x}`); });
  }
  const n = m.length;
  // thresholds; with ≤ instead of <, m = 0 and h = 0 wins at any ρ (threshold 0)
  const t = m.map((x, i) => (h[i]! > 0 || (o.keepNegative && h[i]! !== 0) ? Math.abs(x) / (bs * h[i]!) : o.nonStrict && x === 0 ? 0 : Infinity)).sort((a, b) => a - b);
  if (o.spread) Math.min(...t);
  if (target === 0) return 0;
  let c = o.ceilCount ? Math.ceil(target * n) : 1;
  if (!o.ceilCount) while (c / n < target) c++;
  for (; c <= n; c++) {
    const a = t[c - 1]!;
    if (!Number.isFinite(a)) return null;
    if (o.ignoreTies || c === n || t[c]! > a) return o.nextThreshold && c < n && Number.isFinite(t[c]!) ? t[c]! : Math.max(0, a);
  }
  return null;
};

export const mutants: Record<string, Mutant<F>> = {
  "|m| ≤ ρ·bs·h (not strict): m = 0 with h = 0 wins": { impl: make({ nonStrict: true }), caughtBy: "the code's strict test: m = 0 with h = 0 never wins" },
  "the count as ceil(target · n)": { impl: make({ ceilCount: true }), caughtBy: "the share is c/n, compared in float64" },
  "negative curvature gives a (negative) threshold": { impl: make({ keepNegative: true }), caughtBy: "h ≤ 0 never wins: out of reach is null" },
  "the next coordinate's threshold (one too many)": { impl: make({ nextThreshold: true }), caughtBy: "random vectors" },
  "Math.min(...thresholds)": { impl: make({ spread: true }), caughtBy: "a million coordinates" },
  "no check of the input": { impl: make({ noCheck: true }), caughtBy: "bad input: RangeError naming the field" },
};
