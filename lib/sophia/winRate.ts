/**
 * Sophia's "win rate": the share of coordinates whose update is not clipped,
 * which the authors tune ρ to keep between 0.1 and 0.5, and the ρ that gives it.
 */
import { sophiagStep, validateSophiaG, SOPHIAG_DEFAULTS, type SophiaGOptions } from "./sophiag.js";

/**
 * The code's `train/win_rate`: the share of coordinates with |m| < ρ·bs·h (strict; no ε), where the
 * update |m|/(ρ·bs·h + ε) is not clipped to 1. A coordinate with h ≤ 0 never wins.
 * @param m first moment (n); h the curvature state (n); rho > 0; bs tokens per step
 * @returns a share in [0, 1] (0 for n = 0)
 * @example winRate([0.1, 0.5, 0.3], [1, 1, 0], 0.2, 1) // 1/3: only |0.1| < 0.2
 * @see Liuhong99/Sophia train_sophiag.py at a7e1572, lines 425–434 (num_effective / num_param) and README ("Tuning the hyperparameter ρ")
 */
export function winRate(m: ArrayLike<number>, h: ArrayLike<number>, rho: number, bs: number): number {
  let wins = 0;
  for (let i = 0; i < m.length; i++) if (Math.abs(m[i]!) < rho * bs * h[i]!) wins++;
  return m.length === 0 ? 0 : wins / m.length;
}

/** Each coordinate's threshold: it wins for every ρ above |m|/(bs·h); Infinity when h ≤ 0 (never). Sorted ascending. */
function thresholds(m: ArrayLike<number>, h: ArrayLike<number>, bs: number): number[] {
  const t: number[] = new Array(m.length);
  for (let i = 0; i < m.length; i++) t[i] = h[i]! > 0 ? Math.abs(m[i]!) / (bs * h[i]!) : Infinity;
  return t.sort((a, b) => a - b);
}

function check(m: ArrayLike<number>, h: ArrayLike<number>, bs: number): void {
  if (h.length !== m.length) throw new RangeError(`h must have ${m.length} elements, got ${h.length}`);
  if (!(bs > 0) || !Number.isFinite(bs)) throw new RangeError(`bs must be a finite number > 0, got ${bs}`);
  for (let i = 0; i < m.length; i++) {
    if (!Number.isFinite(m[i]!)) throw new RangeError(`m[${i}] must be finite, got ${m[i]}`);
    if (!Number.isFinite(h[i]!)) throw new RangeError(`h[${i}] must be finite, got ${h[i]}`);
  }
}

/**
 * The win-rate threshold of a target: the value ρ* such that every ρ > ρ* has a win rate of at least
 * `target` and no ρ ≤ ρ* has (the smallest count c of coordinates with c/n ≥ target, compared in float64,
 * that some ρ gives exactly: ρ* is the c-th smallest threshold |m|/(bs·h)). 0 when target is 0; null when
 * too few coordinates have h > 0 to reach it.
 * @param m first moment (n); h curvature (n); bs tokens per step; target in [0, 1]
 * @returns ρ* or null
 * @throws {RangeError} `target must be a number in [0, 1], got 2`; `h must have 3 elements, got 2`; `bs must be a finite number > 0, got 0`; `m[1] must be finite, got NaN`
 * @example rhoForWinRate([0.1, 0.5, 0.3], [1, 1, 0], 1, 0.5) // 0.5: above 0.5 both coordinates with h > 0 win (2/3 ≥ 0.5); at 0.5 only one
 * @see Liuhong99/Sophia README at a7e1572 ("train/win_rate should stay in the range of 0.1 - 0.5")
 */
export function rhoForWinRate(m: ArrayLike<number>, h: ArrayLike<number>, bs: number, target: number): number | null {
  if (typeof target !== "number" || !(target >= 0 && target <= 1)) throw new RangeError(`target must be a number in [0, 1], got ${target}`);
  check(m, h, bs);
  const n = m.length, t = thresholds(m, h, bs);
  for (let c = 0; c <= n; c++) {
    if (c / n < target && n > 0) continue;
    if (c === 0) return 0;
    // exactly c thresholds below some ρ: the c-th is finite and the (c+1)-th is larger
    if (Number.isFinite(t[c - 1]!) && (c === n || t[c]! > t[c - 1]!)) return t[c - 1]!;
  }
  return null;
}

/**
 * A ρ whose win rate lies in [lo, hi]: for the smallest count c reachable with lo ≤ c/n ≤ hi, the
 * geometric mean of the c-th and (c+1)-th thresholds (twice the c-th when it is the last finite one;
 * half the first when c is 0). `fallback` when no count in the band is reachable (too few coordinates
 * with h > 0, or ties between thresholds that jump over the band).
 * @param m first moment; h curvature; bs tokens per step; band [lo, hi] within [0, 1]; fallback the ρ to keep
 * @returns ρ > 0
 * @throws {RangeError} `band must be [lo, hi] with 0 <= lo <= hi <= 1, got [0.5, 0.1]`, and as {@link rhoForWinRate}
 * @example chooseRho([0.1, 0.5, 0.3], [1, 1, 0], 1, [0.1, 0.5], 0.04) // ≈ 0.2236 = √(0.1·0.5): one of three coordinates wins
 * @see Liuhong99/Sophia README at a7e1572, "Tuning the hyperparameter ρ"
 */
export function chooseRho(m: ArrayLike<number>, h: ArrayLike<number>, bs: number, band: readonly [number, number], fallback: number): number {
  const [lo, hi] = band;
  if (!(lo >= 0 && lo <= hi && hi <= 1)) throw new RangeError(`band must be [lo, hi] with 0 <= lo <= hi <= 1, got [${lo}, ${hi}]`);
  check(m, h, bs);
  const n = m.length, t = thresholds(m, h, bs);
  for (let c = 0; c <= n; c++) {
    if (n === 0 || c / n < lo) continue;
    if (c / n > hi) break;
    if (c === 0) { if (Number.isFinite(t[0] ?? Infinity) && t[0]! > 0) return t[0]! / 2; continue; }
    const a = t[c - 1]!, b = c < n ? t[c]! : Infinity;
    if (!Number.isFinite(a) || !(b > a)) continue;
    if (a === 0) { if (Number.isFinite(b)) return b / 2; continue; }
    return Number.isFinite(b) ? Math.sqrt(a * b) : 2 * a;
  }
  return fallback;
}

/**
 * One SophiaG step whose ρ is chosen for this step by {@link chooseRho} on the new first moment: the
 * step of {@link sophiagStep} with that ρ (config.rho, default 0.04, when the band cannot be reached).
 * @param theta, grad, m, h as {@link sophiagStep}; config its options and `winRate` [lo, hi] (default [0.1, 0.5])
 * @returns `{theta, m, rho}`: the new weights and first moment, and the ρ used
 * @throws {RangeError} `winRate must be [lo, hi] with 0 <= lo <= hi <= 1, got [0.5,0.1]`, and as {@link sophiagStep} and {@link chooseRho}
 * @example sophiagStepWithWinRate([1, 1, 1], [0.1, 0.5, 0.3], [0, 0, 0], [1, 1, 0], { lr: 0.1, betas: [0, 0.99], weightDecay: 0, bs: 1 }).rho // ≈ 0.2236
 * @see Liuhong99/Sophia README at a7e1572 ("Tuning the hyperparameter ρ"); sophia.py at 2fc52f2
 */
export function sophiagStepWithWinRate(theta: ArrayLike<number>, grad: ArrayLike<number>, m: ArrayLike<number>, h: ArrayLike<number>,
  config: SophiaGOptions & { bs?: number; winRate?: readonly [number, number] } = {}): { theta: Float64Array; m: Float64Array; rho: number } {
  const { betas, rho } = validateSophiaG(config);
  const bs = config.bs ?? SOPHIAG_DEFAULTS.bs;
  const band = config.winRate ?? [0.1, 0.5];
  if (!Array.isArray(band) || band.length !== 2 || !(band[0] >= 0 && band[0] <= band[1] && band[1] <= 1)) {
    throw new RangeError(`winRate must be [lo, hi] with 0 <= lo <= hi <= 1, got ${JSON.stringify(band)}`);
  }
  for (let i = 0; i < grad.length; i++) if (!Number.isFinite(grad[i]!)) throw new RangeError(`grad of theta[${i}] must be finite, got ${grad[i]}`);
  const mNext = Array.from(m, (x, i) => betas[0] * x + (1 - betas[0]) * grad[i]!);
  const chosen = chooseRho(mNext, h, bs, band, rho);
  const r = sophiagStep(theta, grad, m, h, { ...config, rho: chosen });
  return { theta: r.theta, m: r.m, rho: chosen };
}
