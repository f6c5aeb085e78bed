/**
 * SGD with momentum, with PyTorch's semantics and defaults (torch.optim.SGD).
 */
import type { Param } from "./types.js";

/** Hyperparameters of {@link SGD} (PyTorch names and defaults). */
export interface SGDOptions {
  /** Learning rate (default 1e-3), >= 0. */
  lr?: number;
  /** Momentum μ (default 0), >= 0. */
  momentum?: number;
  /** Dampening τ (default 0). */
  dampening?: number;
  /** L2 penalty λ added to the gradient (default 0), >= 0. */
  weightDecay?: number;
  /** Nesterov momentum (default false); needs momentum > 0 and dampening = 0. */
  nesterov?: boolean;
}

/**
 * Stochastic gradient descent as `torch.optim.SGD` (maximize=False), in float32 arithmetic.
 *
 * g ← g + λ·θ;  b ← g at the first step, else b ← μ·b + (1 − τ)·g;
 * g ← g + μ·b if nesterov, else g ← b (when μ ≠ 0);  θ ← θ − lr·g.
 *
 * @example
 * const opt = new SGD(model.params, { lr: 0.1, momentum: 0.9 });
 * opt.step();
 * @see https://pytorch.org/docs/stable/generated/torch.optim.SGD.html;
 *   Sutskever et al. 2013, On the importance of initialization and momentum
 */
export class SGD {
  lr: number;
  readonly momentum: number;
  readonly dampening: number;
  readonly weightDecay: number;
  readonly nesterov: boolean;
  /** Momentum buffers b, one per param (null before the first step or when momentum = 0). */
  readonly momentumBuffer: (Float32Array | null)[];

  /**
   * @param params the parameters to update
   * @param o hyperparameters; missing ones take PyTorch's defaults
   * @throws {RangeError} `lr must be a finite number >= 0, got …` (same for momentum, weightDecay);
   *   `dampening must be a finite number, got NaN`;
   *   `nesterov momentum requires a momentum > 0 and zero dampening`
   */
  constructor(readonly params: readonly Param[], o: SGDOptions = {}) {
    this.lr = o.lr ?? 1e-3;
    this.momentum = o.momentum ?? 0;
    this.dampening = o.dampening ?? 0;
    this.weightDecay = o.weightDecay ?? 0;
    this.nesterov = o.nesterov ?? false;
    for (const [k, v] of [["lr", this.lr], ["momentum", this.momentum], ["weightDecay", this.weightDecay]] as const) {
      if (!Number.isFinite(v) || v < 0) throw new RangeError(`${k} must be a finite number >= 0, got ${v}`);
    }
    if (!Number.isFinite(this.dampening)) throw new RangeError(`dampening must be a finite number, got ${this.dampening}`);
    if (this.nesterov && (this.momentum <= 0 || this.dampening !== 0)) throw new RangeError("nesterov momentum requires a momentum > 0 and zero dampening");
    this.momentumBuffer = params.map(() => null);
  }

  /** One update of every parameter from its current gradient. */
  step(): void {
    const f = Math.fround, { lr, momentum: mu, dampening: tau, weightDecay: wd } = this;
    this.params.forEach((p, j) => {
      const x = p.data;
      const d = Float32Array.from(p.grad, (g, i) => (wd !== 0 ? f(g + wd * x[i]) : g));
      if (mu !== 0) {
        let buf = this.momentumBuffer[j];
        if (buf === null) buf = this.momentumBuffer[j] = Float32Array.from(d);
        else for (let i = 0; i < d.length; i++) buf[i] = f(f(buf[i] * mu) + f((1 - tau) * d[i]));
        for (let i = 0; i < d.length; i++) d[i] = this.nesterov ? f(d[i] + f(mu * buf[i])) : buf[i];
      }
      for (let i = 0; i < x.length; i++) x[i] = f(x[i] - f(lr * d[i]));
    });
  }

  /** Sets every gradient to zero. */
  zeroGrad(): void {
    for (const p of this.params) p.grad.fill(0);
  }
}
