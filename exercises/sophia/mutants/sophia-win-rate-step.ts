// Plausible wrong steps, written as a student would (no lib code).
import type { Mutant } from "../../harness/index.js";
import type { sophiaStepWithWinRate } from "../sophia-win-rate-step.js";

type F = typeof sophiaStepWithWinRate;
type Bug = "fixed-rho" | "old-m" | "non-strict" | "at-threshold" | "paper-denominator" | "spread" | "no-band-check";

const make = (bug: Bug): F => (theta, grad, m, h, c) => {
  const lr = c.lr ?? 1e-4, [b1] = c.betas ?? [0.965, 0.99], wd = c.weightDecay ?? 0.1, bs = c.bs ?? 5120, fallback = c.rho ?? 0.04;
  const [lo, hi] = c.winRate ?? [0.1, 0.5];
  if (!(lr >= 0) || !Number.isFinite(lr)) throw new RangeError(`lr must be a finite number >= 0, got ${lr}`);
  if (!(b1 >= 0 && b1 < 1)) throw new RangeError(`betas[0] must be in [0, 1), got ${b1}`);
  if (!(fallback > 0)) throw new RangeError(`rho must be a finite number > 0, got ${fallback}`);
  if (!(bs > 0)) throw new RangeError(`bs must be a finite number > 0, got ${bs}`);
  if (bug !== "no-band-check" && !(lo >= 0 && lo <= hi && hi <= 1)) throw new RangeError(`winRate must be [lo, hi] with 0 <= lo <= hi <= 1, got [${lo}, ${hi}]`);
  grad.forEach((g, i) => { if (!Number.isFinite(g)) throw new RangeError(`grad[${i}] must be finite, got ${g}`); });
  const n = theta.length;
  const mNew = m.map((x, i) => b1 * x + (1 - b1) * grad[i]!);
  const basis = bug === "old-m" ? m : mNew;
  const t = basis.map((x, i) => (h[i]! > 0 ? Math.abs(x) / (bs * h[i]!) : bug === "non-strict" && x === 0 && h[i] === 0 ? 0 : Infinity)).sort((a, b) => a - b);
  if (bug === "spread") Math.min(...t);
  let rho = fallback;
  if (bug !== "fixed-rho") {
    for (let k = 0; k <= n; k++) {
      if (k / n < lo) continue;
      if (k / n > hi) break;
      if (k === 0) { if (t[0]! > 0 && Number.isFinite(t[0]!)) { rho = t[0]! / 2; break; } continue; }
      const a = t[k - 1]!, b = k < n ? t[k]! : Infinity;
      if (!Number.isFinite(a) || !(b > a) || a === 0) continue;
      rho = bug === "at-threshold" ? a : Number.isFinite(b) ? Math.sqrt(a * b) : 2 * a;
      break;
    }
  }
  const out = theta.map((x, i) => {
    const den = bug === "paper-denominator" ? Math.max(rho * bs * h[i]!, 1e-15) : rho * bs * h[i]! + 1e-15;
    return x * (1 - lr * wd) - lr * Math.sign(mNew[i]!) * Math.min(Math.abs(mNew[i]!) / den, 1);
  });
  return { theta: out, m: mNew, rho };
};

export const mutants: Record<string, Mutant<F>> = {
  "a fixed ρ (config.rho) at every step": { impl: make("fixed-rho"), caughtBy: ["your ρ's win rate lies in the band", "training: every step's win rate in [0.1, 0.5] once reachable"] },
  "the win rate of the old first moment": { impl: make("old-m"), caughtBy: "your ρ's win rate lies in the band" },
  "|m| ≤ ρ·bs·h: m = 0 with h = 0 counted as a win": { impl: make("non-strict"), caughtBy: "the strict test; h ≤ 0 never wins" },
  "ρ set at a threshold, where that coordinate does not win yet": { impl: make("at-threshold"), caughtBy: ["the stub's example", "your ρ's win rate lies in the band"] },
  "the paper's denominator max(ρ·bs·h, ε) instead of the code's": { impl: make("paper-denominator"), caughtBy: "the strict test; h ≤ 0 never wins" },
  "Math.min(...thresholds)": { impl: make("spread"), caughtBy: "300,000 coordinates" },
  "no check of the band": { impl: make("no-band-check"), caughtBy: "bad input names the field" },
};
