/**
 * SophiaG (Liu et al. 2023) as the authors' reference implementation defines
 * it: `sophia.py` of github.com/Liuhong99/Sophia at commit
 * 2fc52f24d4bc008658111b0237a70953ada22398 (the last commit touching
 * sophia.py; repository head a7e157229b71d58cf995d32854f1be15c265b350), and its
 * training loop `train_sophiag.py` for the Hessian schedule.
 *
 * Per coordinate, one optimizer step (code order):
 *
 * ```text
 * θ ← θ · (1 − lr · λ)                                  decoupled weight decay
 * m ← β1 · m + (1 − β1) · g                             EMA of gradients
 * θ ← θ − lr · sign(m) · min(|m| / (ρ · bs · h + 1e-15), 1)
 * ```
 *
 * and, every k steps, a separate call (`update_hessian`) after that step:
 * `h ← β2 · h + (1 − β2) · ĝ ⊙ ĝ`, where ĝ is the gradient of the MEAN loss on
 * labels sampled from the model's own softmax. The batch size `bs` (tokens per
 * step; `total_bs · block_size` in the training script, default 5120 in
 * `step`) multiplies h inside the step, not inside the estimate.
 *
 * Where the paper's Algorithm 3 and the code differ (this module follows the code):
 * 1. **Where B enters.** Algorithm 3 stores ĥ = B · ĝ ⊙ ĝ in h; the code stores
 *    ĝ ⊙ ĝ and multiplies by bs in the denominator. Same product ρ·B·ĝ², but h
 *    differs by the factor B (what a reader inspecting h sees).
 * 2. **γ vs ρ and the ε guard.** Algorithm 3 divides by max{γ · h, ε}; the code
 *    divides by ρ · bs · h + 1e-15 (ε added, not a max; ε fixed at 1e-15 and not a
 *    hyperparameter). With h < 0 (possible for Hutchinson, never for GNB) the
 *    paper's max gives ε and a clipped ±1 step in the descent direction; the
 *    code's denominator is negative, the ratio negative, `clamp(None, 1)` has no
 *    lower bound, so the step goes UPHILL by lr·|m|/(ρ·bs·|h|), unbounded.
 * 3. **Clipping.** Algorithm 3 writes clip(m / max{γh, ε}, 1) (two-sided clip of a
 *    signed ratio); the code writes sign(m) · min(|m| / denominator, 1). Equal for h ≥ 0.
 * 4. **When h is first set.** In the training script h is updated after steps
 *    with index `iter % k == k − 1` (0-based), so the first k steps run with h = 0:
 *    the ratio is |m|/1e-15, clipped to 1, i.e. sign-momentum steps of size lr.
 *    Algorithm 3 updates at t mod k = 1 (1-based), i.e. before the first step.
 * 5. **Defaults.** Code: lr 1e-4, betas (0.965, 0.99), ρ 0.04, weight decay 0.1,
 *    bs 5120; the GPT-2 configs use k = 10, ρ 0.05 (small), 0.08 (medium), 0.05 (large)
 *    (train_sophiag.py's own default 0.03), grad_clip 1.0.
 *    (`sophia.py` accepts ρ = 0; this module rejects ρ ≤ 0, where the step is
 *    pure sign-momentum and not Sophia.)
 *
 * Arithmetic: float64 per coordinate, stored to the Float32Array state and
 * weights (one rounding per stored value).
 */
import type { Param } from "../nn/index.js";

/** The constant the code adds to the denominator (`1e-15` in `_single_tensor_sophiag`). */
export const SOPHIA_EPS = 1e-15;

/** Hyperparameters of {@link SophiaG} (the code's names and defaults). */
export interface SophiaGOptions {
  /** Learning rate (default 1e-4), finite, >= 0. */
  lr?: number;
  /** (β1, β2), each in [0, 1) (default [0.965, 0.99]). */
  betas?: [number, number];
  /** ρ (default 0.04), finite, > 0. */
  rho?: number;
  /** Decoupled weight decay λ (default 0.1), finite, >= 0. */
  weightDecay?: number;
}

/** The code's defaults. */
export const SOPHIAG_DEFAULTS = { lr: 1e-4, betas: [0.965, 0.99] as [number, number], rho: 0.04, weightDecay: 0.1, bs: 5120 } as const;

/**
 * Validates SophiaG hyperparameters; returns them with the defaults filled in.
 *
 * @param o options (fields may be omitted)
 * @returns `{lr, betas, rho, weightDecay}`
 * @throws {RangeError} `rho must be a finite number > 0, got 0`; `betas[1] must be in [0, 1), got 1`;
 *   `lr must be a finite number >= 0, got -1`; `weightDecay must be a finite number >= 0, got NaN`
 * @example
 * validateSophiaG({ rho: 0.05 }).betas; // [0.965, 0.99]
 * @see Liuhong99/Sophia sophia.py `SophiaG.__init__` (its checks and defaults)
 */
export function validateSophiaG(o: SophiaGOptions = {}): { lr: number; betas: [number, number]; rho: number; weightDecay: number } {
  const lr = o.lr ?? SOPHIAG_DEFAULTS.lr;
  const betas: [number, number] = o.betas ? [o.betas[0], o.betas[1]] : [...SOPHIAG_DEFAULTS.betas];
  const rho = o.rho ?? SOPHIAG_DEFAULTS.rho;
  const weightDecay = o.weightDecay ?? SOPHIAG_DEFAULTS.weightDecay;
  if (!(Number.isFinite(lr) && lr >= 0)) throw new RangeError(`lr must be a finite number >= 0, got ${lr}`);
  betas.forEach((b, i) => { if (!(b >= 0 && b < 1)) throw new RangeError(`betas[${i}] must be in [0, 1), got ${b}`); });
  if (!(Number.isFinite(rho) && rho > 0)) throw new RangeError(`rho must be a finite number > 0, got ${rho}`);
  if (!(Number.isFinite(weightDecay) && weightDecay >= 0)) throw new RangeError(`weightDecay must be a finite number >= 0, got ${weightDecay}`);
  return { lr, betas, rho, weightDecay };
}

function checkBs(bs: number): void {
  if (!(Number.isFinite(bs) && bs > 0)) throw new RangeError(`bs must be a finite number > 0, got ${bs}`);
}

function checkFinite(name: string, g: ArrayLike<number>): void {
  for (let i = 0; i < g.length; i++) if (!Number.isFinite(g[i])) throw new RangeError(`grad of ${name}[${i}] must be finite, got ${g[i]}`);
}

/**
 * One SophiaG step on plain arrays (a pure function; the inputs are not modified).
 *
 * θ' = θ(1 − lr·λ) − lr·sign(m')·min(|m'| / (ρ·bs·h + 1e-15), 1), m' = β1·m + (1 − β1)·g.
 * h is read, never written (see {@link hessianEma}).
 *
 * @param theta weights (n)
 * @param grad gradient of the mean loss (n), finite
 * @param m first moment (n)
 * @param h Hessian EMA (n), as the code stores it (without bs)
 * @param config `{lr, betas, rho, weightDecay}` (code defaults for omitted fields) and `bs` (tokens per step, default 5120)
 * @returns `{theta, m, clipped}`: new arrays; `clipped` counts coordinates where the min chose 1
 * @throws {RangeError} the messages of {@link validateSophiaG}; `bs must be a finite number > 0, got 0`;
 *   `grad of theta[2] must be finite, got NaN`; `grad must have 3 elements, got 2`
 * @example
 * sophiagStep([1], [0.5], [0], [0.5], { lr: 0.1, betas: [0.5, 0.9], rho: 1, weightDecay: 0, bs: 1 });
 * // m = 0.25, ratio = 0.25 / 0.5 = 0.5, θ = 1 − 0.1·0.5 = 0.95 → {theta: [0.95], m: [0.25], clipped: 0}
 * @see Liuhong99/Sophia sophia.py `_single_tensor_sophiag` (commit 2fc52f24d4bc008658111b0237a70953ada22398);
 *   Liu et al. 2023, Sophia: A Scalable Stochastic Second-order Optimizer for Language Model Pre-training, Algorithm 3
 */
export function sophiagStep(theta: ArrayLike<number>, grad: ArrayLike<number>, m: ArrayLike<number>, h: ArrayLike<number>,
  config: SophiaGOptions & { bs?: number } = {}): { theta: Float64Array; m: Float64Array; clipped: number } {
  const { lr, betas, rho, weightDecay } = validateSophiaG(config);
  const bs = config.bs ?? SOPHIAG_DEFAULTS.bs;
  checkBs(bs);
  const n = theta.length;
  for (const [name, a] of [["grad", grad], ["m", m], ["h", h]] as const) {
    if (a.length !== n) throw new RangeError(`${name} must have ${n} elements, got ${a.length}`);
  }
  checkFinite("theta", grad);
  const t2 = new Float64Array(n), m2 = new Float64Array(n);
  let clipped = 0;
  for (let i = 0; i < n; i++) {
    const mi = betas[0] * m[i] + (1 - betas[0]) * grad[i];
    const ratio = Math.min(Math.abs(mi) / (rho * bs * h[i] + SOPHIA_EPS), 1);
    if (ratio === 1) clipped++;
    t2[i] = theta[i] * (1 - lr * weightDecay) - lr * Math.sign(mi) * ratio;
    m2[i] = mi;
  }
  return { theta: t2, m: m2, clipped };
}

/**
 * The Hessian EMA of `update_hessian`: h' = β2·h + (1 − β2)·ĝ⊙ĝ (a pure function).
 *
 * @param h current EMA (n)
 * @param gHat the estimator's gradient ĝ (n): for GNB, the gradient of the mean loss on sampled labels
 * @param beta2 in [0, 1)
 * @returns a new array h'
 * @throws {RangeError} `beta2 must be in [0, 1), got 1`; `gHat must have 2 elements, got 3`; `gHat[0] must be finite, got Infinity`
 * @example
 * hessianEma([1, 0], [2, -1], 0.5); // [0.5·1 + 0.5·4, 0.5·0 + 0.5·1] = [2.5, 0.5]
 * @see Liuhong99/Sophia sophia.py `SophiaG.update_hessian` (hessian.mul_(beta2).addcmul_(grad, grad, value=1 − beta2))
 */
export function hessianEma(h: ArrayLike<number>, gHat: ArrayLike<number>, beta2: number): Float64Array {
  if (!(beta2 >= 0 && beta2 < 1)) throw new RangeError(`beta2 must be in [0, 1), got ${beta2}`);
  if (gHat.length !== h.length) throw new RangeError(`gHat must have ${h.length} elements, got ${gHat.length}`);
  const out = new Float64Array(h.length);
  for (let i = 0; i < h.length; i++) {
    if (!Number.isFinite(gHat[i])) throw new RangeError(`gHat[${i}] must be finite, got ${gHat[i]}`);
    out[i] = beta2 * h[i] + (1 - beta2) * gHat[i] * gHat[i];
  }
  return out;
}

/**
 * Whether the training loop refreshes h after the step with this 0-based index:
 * `iter % k == k − 1` in `train_sophiag.py` (so steps k−1, 2k−1, …; never before step k−1).
 *
 * @param iter 0-based step index, integer >= 0
 * @param k the interval, integer >= 1 (`hess_interval`, 10 in the configs)
 * @returns true when the Hessian estimate follows this step
 * @throws {RangeError} `k must be an integer >= 1, got 0`; `iter must be an integer >= 0, got -1`
 * @example
 * [0, 1, 2, 3, 4, 5, 6].filter((i) => isHessianStep(i, 3)); // [2, 5]
 * @see Liuhong99/Sophia train_sophiag.py (`if iter_num % hess_interval != hess_interval - 1:` … else … `optimizer.update_hessian()`)
 */
export function isHessianStep(iter: number, k: number): boolean {
  if (!(Number.isInteger(k) && k >= 1)) throw new RangeError(`k must be an integer >= 1, got ${k}`);
  if (!(Number.isInteger(iter) && iter >= 0)) throw new RangeError(`iter must be an integer >= 0, got ${iter}`);
  return iter % k === k - 1;
}

/**
 * SophiaG on lib/nn parameters (in place, like the PyTorch optimizer): `step(bs)` uses
 * `p.grad`; `updateHessian()` folds the CURRENT `p.grad` (the estimator's ĝ) into h.
 *
 * @example
 * const opt = new SophiaG(model.params, { lr: 3e-3, rho: 0.05 });
 * // each step: zeroGrad, forward, backward, opt.step(tokens);
 * // after steps with isHessianStep(i, k): zeroGrad, gnbGradients(…) into p.grad, opt.updateHessian()
 * @see Liuhong99/Sophia sophia.py `SophiaG` (commit 2fc52f24d4bc008658111b0237a70953ada22398)
 */
export class SophiaG {
  lr: number;
  readonly betas: [number, number];
  readonly rho: number;
  readonly weightDecay: number;
  stepCount = 0;
  /**
   * "code" (default): divide by ρ·bs·h + 1e-15, as `sophia.py`. "paper": divide by max{ρ·bs·h, 1e-15}, Algorithm 3's
   * guard, which turns a negative h into a clipped step of size lr in the descent direction. Equal for h ≥ 0.
   */
  readonly denominator: "code" | "paper";
  /** Coordinates clipped (ratio = 1) at the last step. */
  lastClipped = 0;
  readonly expAvg: Float32Array[];
  readonly hessian: Float32Array[];

  /**
   * @param params lib/nn parameters (updated in place)
   * @param o hyperparameters (code defaults) and the denominator ("code" unless "paper")
   * @throws {RangeError} the messages of {@link validateSophiaG}; `denominator must be "code" or "paper", got "max"`
   */
  constructor(readonly params: readonly Param[], o: SophiaGOptions & { denominator?: "code" | "paper" } = {}) {
    const v = validateSophiaG(o);
    this.denominator = o.denominator ?? "code";
    if (this.denominator !== "code" && this.denominator !== "paper") throw new RangeError(`denominator must be "code" or "paper", got ${JSON.stringify(o.denominator)}`);
    this.lr = v.lr; this.betas = v.betas; this.rho = v.rho; this.weightDecay = v.weightDecay;
    this.expAvg = params.map((p) => new Float32Array(p.data.length));
    this.hessian = params.map((p) => new Float32Array(p.data.length));
  }

  /**
   * One step from `p.grad`.
   * @param bs tokens per step (the code's `bs`, default 5120)
   * @throws {RangeError} `bs must be a finite number > 0, got 0`; `grad of <param name>[i] must be finite, got NaN` (nothing is modified then)
   */
  step(bs: number = SOPHIAG_DEFAULTS.bs): void {
    checkBs(bs);
    for (const p of this.params) checkFinite(p.name, p.grad);
    this.stepCount++;
    const [b1] = this.betas, decay = 1 - this.lr * this.weightDecay, den = this.rho * bs, paper = this.denominator === "paper";
    let clipped = 0;
    this.params.forEach((p, j) => {
      const m = this.expAvg[j]!, h = this.hessian[j]!, x = p.data, g = p.grad;
      for (let i = 0; i < x.length; i++) {
        const mi = b1 * m[i]! + (1 - b1) * g[i]!;
        m[i] = mi;
        const ratio = Math.min(Math.abs(mi) / (paper ? Math.max(den * h[i]!, SOPHIA_EPS) : den * h[i]! + SOPHIA_EPS), 1);
        if (ratio === 1) clipped++;
        x[i] = x[i]! * decay - this.lr * Math.sign(mi) * ratio;
      }
    });
    this.lastClipped = clipped;
  }

  /**
   * h ← β2·h + (1 − β2)·g⊙g from the current `p.grad`.
   * @throws {RangeError} `grad of <param name>[i] must be finite, got NaN`
   */
  updateHessian(): void {
    for (const p of this.params) checkFinite(p.name, p.grad);
    const b2 = this.betas[1];
    this.params.forEach((p, j) => {
      const h = this.hessian[j]!, g = p.grad;
      for (let i = 0; i < h.length; i++) h[i] = b2 * h[i]! + (1 - b2) * g[i]! * g[i]!;
    });
  }

  /** Sets every gradient to zero. */
  zeroGrad(): void { for (const p of this.params) p.grad.fill(0); }
}

/**
 * The 0-based indices of the steps after which h is refreshed, in a run of `steps` steps.
 * @param steps integer >= 0; @param k integer >= 1
 * @returns ascending indices i < steps with i % k == k − 1 (⌊steps/k⌋ of them)
 * @throws {RangeError} `k must be an integer >= 1, got 0`; `steps must be an integer >= 0, got 1.5`
 * @example hessianSchedule(10, 4); // [3, 7]
 * @see {@link isHessianStep}; Liuhong99/Sophia train_sophiag.py
 */
export function hessianSchedule(steps: number, k: number): number[] {
  if (!(Number.isInteger(k) && k >= 1)) throw new RangeError(`k must be an integer >= 1, got ${k}`);
  if (!(Number.isInteger(steps) && steps >= 0)) throw new RangeError(`steps must be an integer >= 0, got ${steps}`);
  const out: number[] = [];
  for (let i = k - 1; i < steps; i += k) out.push(i);
  return out;
}
