import { notImplemented } from "../harness/index.js";

/** SophiaG's hyperparameters, with the names of the authors' `sophia.py`. Omitted fields take that code's defaults. */
export interface SophiaConfig {
  /** Learning rate, finite, >= 0 (default 1e-4). */
  lr?: number;
  /** [β1, β2], each in [0, 1) (default [0.965, 0.99]); the step uses β1 only. */
  betas?: [number, number];
  /** ρ, finite, > 0 (default 0.04). */
  rho?: number;
  /** Decoupled weight decay λ, finite, >= 0 (default 0.1). */
  weightDecay?: number;
  /** Tokens per step, the `bs` argument of `SophiaG.step`, finite, > 0 (default 5120). */
  bs?: number;
}

/**
 * Exercise 11.4 (build it) — one SophiaG step, as the authors' code defines it.
 *
 * Given the weights, the gradient of the mean loss, the first moment m and the curvature state h
 * (as `update_hessian` keeps it, see 11.2), return the new weights and the new m of ONE step of
 * `SophiaG.step` in Liuhong99/Sophia `sophia.py` (commit 2fc52f2): decoupled weight decay, the
 * gradient EMA with β1, and the per-coordinate clipped update with ρ, bs and the code's constant
 * 1e-15 exactly where that code puts them. Follow the code where the paper's Algorithm 3 differs
 * (h may be zero or negative here). h is read, not written. Do not modify the inputs.
 *
 * The grader plugs your step into a training loop of the course's character model (lib/nn):
 * 30 steps, the GNB curvature refreshed every 4 steps, and compares the weights with the
 * reference run.
 *
 * Errors (RangeError, message naming the field): `lr`, `betas[0]`/`betas[1]`, `rho` (<= 0),
 * `weightDecay`, `bs` out of range; a non-finite gradient entry (`grad`); arrays of different lengths.
 * Source: the chapter's section "The algorithm line by line".
 *
 * @param theta weights (n)
 * @param grad gradient (n), finite
 * @param m first moment (n)
 * @param h curvature state (n), any sign
 * @param config hyperparameters (defaults as above)
 * @returns `{theta, m}`: new arrays of n numbers
 * @example sophiagStep([1], [0.5], [0], [0.5], { lr: 0.1, betas: [0.5, 0.9], rho: 1, weightDecay: 0, bs: 1 })
 * // {theta: [0.95], m: [0.25]}
 */
export function sophiagStep(theta: number[], grad: number[], m: number[], h: number[], config: SophiaConfig): { theta: number[]; m: number[] } {
  return notImplemented("11.4");
}
