/**
 * AdamW with PyTorch's semantics and defaults (torch.optim.AdamW).
 */
import type { Param } from "./types.js";

/** Hyperparameters of {@link AdamW} (PyTorch names and defaults). */
export interface AdamWOptions {
  /** Learning rate (default 1e-3), >= 0. */
  lr?: number;
  /** (β1, β2), each in [0, 1) (default [0.9, 0.999]). */
  betas?: [number, number];
  /** Added to the denominator (default 1e-8), >= 0. */
  eps?: number;
  /** Decoupled weight decay λ (default 1e-2), >= 0. */
  weightDecay?: number;
}

/**
 * AdamW: Adam with decoupled weight decay, as `torch.optim.AdamW` (amsgrad=False,
 * maximize=False, the single-tensor path), in float32 arithmetic.
 *
 * At step t (starting at 1), for each parameter θ with gradient g:
 *   θ ← θ·(1 − lr·λ)
 *   m ← β1·m + (1 − β1)·g,   v ← β2·v + (1 − β2)·g²
 *   θ ← θ − (lr / (1 − β1^t)) · m / (√v / √(1 − β2^t) + ε)
 *
 * @example
 * const opt = new AdamW(model.params);          // lr 1e-3, betas (0.9, 0.999), eps 1e-8, weight_decay 1e-2
 * backward(model, forward(model, batch)); opt.step(); opt.zeroGrad();
 * @see Loshchilov & Hutter 2019, Decoupled Weight Decay Regularization, Algorithm 2;
 *   https://pytorch.org/docs/stable/generated/torch.optim.AdamW.html
 */
export class AdamW {
  lr: number;
  readonly betas: [number, number];
  readonly eps: number;
  readonly weightDecay: number;
  /** Steps taken (t). */
  stepCount = 0;
  /** First moments m, one per param. */
  readonly expAvg: Float32Array[];
  /** Second moments v, one per param. */
  readonly expAvgSq: Float32Array[];

  /**
   * @param params the parameters to update (their `grad` is read by `step`)
   * @param o hyperparameters; missing ones take PyTorch's defaults
   * @throws {RangeError} `lr must be a finite number >= 0, got -1`; `betas[0] must be in [0, 1), got 1`;
   *   `eps must be a finite number >= 0, got …`; `weightDecay must be a finite number >= 0, got …`
   */
  constructor(readonly params: readonly Param[], o: AdamWOptions = {}) {
    this.lr = o.lr ?? 1e-3;
    this.betas = o.betas ?? [0.9, 0.999];
    this.eps = o.eps ?? 1e-8;
    this.weightDecay = o.weightDecay ?? 1e-2;
    for (const [k, v] of [["lr", this.lr], ["eps", this.eps], ["weightDecay", this.weightDecay]] as const) {
      if (!Number.isFinite(v) || v < 0) throw new RangeError(`${k} must be a finite number >= 0, got ${v}`);
    }
    this.betas.forEach((b, i) => { if (!(b >= 0 && b < 1)) throw new RangeError(`betas[${i}] must be in [0, 1), got ${b}`); });
    this.expAvg = params.map((p) => new Float32Array(p.data.length));
    this.expAvgSq = params.map((p) => new Float32Array(p.data.length));
  }

  /** One update of every parameter from its current gradient. */
  step(): void {
    this.stepCount++;
    const f = Math.fround, [b1, b2] = this.betas, t = this.stepCount;
    const stepSize = this.lr / (1 - b1 ** t);
    const bc2Sqrt = Math.sqrt(1 - b2 ** t);
    const decay = f(1 - this.lr * this.weightDecay);
    this.params.forEach((p, j) => {
      const m = this.expAvg[j], v = this.expAvgSq[j], x = p.data, g = p.grad;
      for (let i = 0; i < x.length; i++) {
        x[i] = f(x[i] * decay);
        m[i] = f(m[i] + f((1 - b1) * f(g[i] - m[i]))); // torch: exp_avg.lerp_(grad, 1 - beta1)
        v[i] = f(f(v[i] * b2) + f((1 - b2) * f(g[i] * g[i])));
        const denom = f(f(f(Math.sqrt(v[i])) / bc2Sqrt) + this.eps);
        x[i] = f(x[i] - f(stepSize * f(m[i] / denom)));
      }
    });
  }

  /** Sets every gradient to zero. */
  zeroGrad(): void {
    for (const p of this.params) p.grad.fill(0);
  }
}
