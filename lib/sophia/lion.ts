/**
 * Lion (Chen et al. 2023, "Symbolic Discovery of Optimization Algorithms", Algorithm 2):
 * the baseline that, like Sophia's clipped step, moves every coordinate by at most lr.
 */
import type { Param } from "../nn/index.js";

/** Hyperparameters of {@link Lion} (the paper's / lion-pytorch's names and defaults). */
export interface LionOptions {
  /** Learning rate (default 1e-4), finite, >= 0. */
  lr?: number;
  /** (β1, β2), each in [0, 1) (default [0.9, 0.99]). */
  betas?: [number, number];
  /** Decoupled weight decay λ (default 0), finite, >= 0. */
  weightDecay?: number;
}

/**
 * One Lion step on plain arrays (pure):
 * c = β1·m + (1 − β1)·g; θ' = θ·(1 − lr·λ) − lr·sign(c); m' = β2·m + (1 − β2)·g.
 *
 * @param theta weights (n); @param grad gradient (n), finite; @param m momentum (n)
 * @param o `{lr, betas, weightDecay}` (defaults 1e-4, [0.9, 0.99], 0)
 * @returns `{theta, m}`: new arrays
 * @throws {RangeError} `betas[0] must be in [0, 1), got 1`; `lr must be a finite number >= 0, got -1`;
 *   `weightDecay must be a finite number >= 0, got -1`; `grad[1] must be finite, got NaN`; `grad must have 2 elements, got 1`
 * @example
 * lionStep([1], [0.5], [0], { lr: 0.1 }); // c = 0.05 > 0: θ = 0.9; m = 0.01·0.5 = 0.005
 * @see Chen et al. 2023, Symbolic Discovery of Optimization Algorithms, Algorithm 2 (arXiv:2302.06675)
 */
export function lionStep(theta: ArrayLike<number>, grad: ArrayLike<number>, m: ArrayLike<number>, o: LionOptions = {}): { theta: Float64Array; m: Float64Array } {
  const { lr, betas, weightDecay } = validateLion(o);
  if (grad.length !== theta.length) throw new RangeError(`grad must have ${theta.length} elements, got ${grad.length}`);
  if (m.length !== theta.length) throw new RangeError(`m must have ${theta.length} elements, got ${m.length}`);
  const t2 = new Float64Array(theta.length), m2 = new Float64Array(theta.length);
  for (let i = 0; i < theta.length; i++) {
    if (!Number.isFinite(grad[i])) throw new RangeError(`grad[${i}] must be finite, got ${grad[i]}`);
    const c = betas[0] * m[i] + (1 - betas[0]) * grad[i];
    t2[i] = theta[i] * (1 - lr * weightDecay) - lr * Math.sign(c);
    m2[i] = betas[1] * m[i] + (1 - betas[1]) * grad[i];
  }
  return { theta: t2, m: m2 };
}

/**
 * Validates Lion hyperparameters and fills in the defaults.
 * @param o options
 * @returns `{lr, betas, weightDecay}`
 * @throws {RangeError} as {@link lionStep}
 * @example validateLion({}).betas; // [0.9, 0.99]
 * @see Chen et al. 2023, Algorithm 2 and §3 (β1 = 0.9, β2 = 0.99 defaults)
 */
export function validateLion(o: LionOptions = {}): { lr: number; betas: [number, number]; weightDecay: number } {
  const lr = o.lr ?? 1e-4, betas: [number, number] = o.betas ? [o.betas[0], o.betas[1]] : [0.9, 0.99], weightDecay = o.weightDecay ?? 0;
  if (!(Number.isFinite(lr) && lr >= 0)) throw new RangeError(`lr must be a finite number >= 0, got ${lr}`);
  betas.forEach((b, i) => { if (!(b >= 0 && b < 1)) throw new RangeError(`betas[${i}] must be in [0, 1), got ${b}`); });
  if (!(Number.isFinite(weightDecay) && weightDecay >= 0)) throw new RangeError(`weightDecay must be a finite number >= 0, got ${weightDecay}`);
  return { lr, betas, weightDecay };
}

/**
 * Lion on lib/nn parameters (in place).
 * @example const opt = new Lion(model.params, { lr: 1e-3 }); opt.step();
 * @see Chen et al. 2023, Algorithm 2
 */
export class Lion {
  lr: number;
  readonly betas: [number, number];
  readonly weightDecay: number;
  readonly expAvg: Float32Array[];
  /** @throws {RangeError} as {@link validateLion} */
  constructor(readonly params: readonly Param[], o: LionOptions = {}) {
    const v = validateLion(o);
    this.lr = v.lr; this.betas = v.betas; this.weightDecay = v.weightDecay;
    this.expAvg = params.map((p) => new Float32Array(p.data.length));
  }
  /** One step from `p.grad`. @throws {RangeError} `grad of <name>[i] must be finite, got NaN` */
  step(): void {
    for (const p of this.params) for (let i = 0; i < p.grad.length; i++) if (!Number.isFinite(p.grad[i])) throw new RangeError(`grad of ${p.name}[${i}] must be finite, got ${p.grad[i]}`);
    const [b1, b2] = this.betas, decay = 1 - this.lr * this.weightDecay;
    this.params.forEach((p, j) => {
      const m = this.expAvg[j]!, x = p.data, g = p.grad;
      for (let i = 0; i < x.length; i++) {
        const c = b1 * m[i]! + (1 - b1) * g[i]!;
        x[i] = x[i]! * decay - this.lr * Math.sign(c);
        m[i] = b2 * m[i]! + (1 - b2) * g[i]!;
      }
    });
  }
  /** Sets every gradient to zero. */
  zeroGrad(): void { for (const p of this.params) p.grad.fill(0); }
}
