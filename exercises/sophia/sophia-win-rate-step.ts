import { notImplemented } from "../harness/index.js";

/** SophiaG's hyperparameters (the names of the authors' `sophia.py`) and the win-rate band. Omitted fields take the defaults below. */
export interface WinRateConfig {
  /** Learning rate, finite, >= 0 (default 1e-4). */
  lr?: number;
  /** [β1, β2], each in [0, 1) (default [0.965, 0.99]); the step uses β1 only. */
  betas?: [number, number];
  /** The ρ to use when no ρ gives a win rate in the band, finite, > 0 (default 0.04). */
  rho?: number;
  /** Decoupled weight decay λ, finite, >= 0 (default 0.1). */
  weightDecay?: number;
  /** Tokens per step, the `bs` argument of `SophiaG.step`, finite, > 0 (default 5120). */
  bs?: number;
  /** [lo, hi] with 0 <= lo <= hi <= 1 (default [0.1, 0.5], the authors' advice). */
  winRate?: [number, number];
}

/**
 * Exercise 11.4 (build it) — SophiaG with a ρ that keeps the win rate in range.
 *
 * What: one step of SophiaG as the authors' `sophia.py` (commit 2fc52f2)
 * does it, the page's "The algorithm line by line" (weight decay, the
 * gradient EMA with β1, the clipped update with ρ, bs and the code's 1e-15),
 * except that ρ is chosen anew at every step: any ρ > 0 whose win rate lies
 * in [lo, hi]. The win rate is the code's `train/win_rate`: the share of
 * coordinates with |m| < ρ·bs·h, strictly, m the step's NEW first moment.
 * The authors tune ρ so that it stays between 0.1 and 0.5 (their README).
 * When no ρ gives a share in the band (too few coordinates with h > 0, as
 * before the first curvature refresh, or equal thresholds that jump over
 * it), use `config.rho`.
 * The grader trains lib/nn's character model with it: 40 steps, the GNB
 * curvature refreshed every 4 steps, all the model's parameters as one
 * vector per step; every step's win rate must lie in [0.1, 0.5] once the
 * band can be reached, and the loss must follow the run with a fixed ρ.
 * Input: `theta`, `grad` (finite), `m`, `h` (any sign): arrays of n numbers
 * (n up to a million), not modified; `config` as {@link WinRateConfig}.
 * Output: `{ theta, m, rho }`: new arrays of n numbers, and the ρ used.
 * Errors (RangeError, message naming the field): `lr`, `betas[0]`/`betas[1]`,
 * `rho` (<= 0), `weightDecay`, `bs` out of range; `winRate` not a band in
 * [0, 1]; a non-finite gradient entry (`grad`); arrays of different lengths.
 * Example: sophiaStepWithWinRate([1, 1, 1], [0.1, 0.5, 0.3], [0, 0, 0],
 * [1, 1, 0], { lr: 0.1, betas: [0, 0.99], weightDecay: 0, bs: 1 }) → any ρ
 * in (0.1, 0.5] (one coordinate of three wins: 1/3 is in [0.1, 0.5]), and
 * the weights of SophiaG's step with that ρ.
 *
 * @param theta weights (n)
 * @param grad gradient of the mean loss (n)
 * @param m first moment (n)
 * @param h curvature state (n)
 * @param config hyperparameters and the band
 * @returns the new weights and first moment, and the ρ used
 * @throws {RangeError} as above
 */
export function sophiaStepWithWinRate(theta: number[], grad: number[], m: number[], h: number[], config: WinRateConfig): { theta: number[]; m: number[]; rho: number } {
  return notImplemented("11.4");
}
