/**
 * AdamW as the plain loop one writes first in TypeScript: float32 arrays,
 * float64 arithmetic in between (JavaScript numbers), one rounding at each store.
 */
import type { AdamWOptions } from "../nn/index.js";

/**
 * Hyperparameters with PyTorch's defaults filled in and checked.
 * @param o lr, betas, eps, weightDecay (PyTorch names; defaults 1e-3, [0.9, 0.999], 1e-8, 1e-2)
 * @returns all four, new object
 * @throws RangeError `lr must be a finite number >= 0, got -1`; `betas[1] must be in [0, 1), got 1`
 * @example adamHyper({}).betas // [0.9, 0.999]
 * @see https://pytorch.org/docs/stable/generated/torch.optim.AdamW.html
 */
export function adamHyper(o: AdamWOptions = {}): Required<AdamWOptions> {
  const lr = o.lr ?? 1e-3, eps = o.eps ?? 1e-8, weightDecay = o.weightDecay ?? 1e-2;
  const betas: [number, number] = [...(o.betas ?? [0.9, 0.999])] as [number, number];
  for (const [k, v] of [["lr", lr], ["eps", eps], ["weightDecay", weightDecay]] as const) {
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw new RangeError(`${k} must be a finite number >= 0, got ${v}`);
  }
  betas.forEach((b, i) => { if (!(b >= 0 && b < 1)) throw new RangeError(`betas[${i}] must be in [0, 1), got ${b}`); });
  return { lr, betas, eps, weightDecay };
}

/**
 * One AdamW step at step number t, in place, on flat float32 arrays.
 *
 * θ ← θ(1 − lr·λ); m ← β1·m + (1 − β1)·g; v ← β2·v + (1 − β2)·g²;
 * θ ← θ − lr/(1 − β1ᵗ) · m / (√v / √(1 − β2ᵗ) + ε).
 *
 * @param x fp32 master parameters (n), updated in place
 * @param g gradients (n)
 * @param m first moments (n), updated in place
 * @param v second moments (n), updated in place
 * @param t step number, integer ≥ 1 (bias correction)
 * @param o hyperparameters ({@link adamHyper})
 * @throws RangeError `t must be an integer >= 1, got 0`; `g has 3 elements, x has 4`
 * @example const x = Float32Array.of(1); adamLoop(x, Float32Array.of(0.5), new Float32Array(1), new Float32Array(1), 1, { lr: 0.1, weightDecay: 0 }); x[0] // 0.9 (to float32)
 * @see Loshchilov & Hutter 2019, *Decoupled Weight Decay Regularization*, Algorithm 2; lib/nn AdamW.ts (the per-operation float32 reference)
 */
export function adamLoop(x: Float32Array, g: Float32Array, m: Float32Array, v: Float32Array, t: number, o: AdamWOptions = {}): void {
  const { lr, betas: [b1, b2], eps, weightDecay } = adamHyper(o);
  if (!Number.isSafeInteger(t) || t < 1) throw new RangeError(`t must be an integer >= 1, got ${t}`);
  for (const [name, a] of [["g", g], ["m", m], ["v", v]] as const) if (a.length !== x.length) throw new RangeError(`${name} has ${a.length} elements, x has ${x.length}`);
  const stepSize = lr / (1 - b1 ** t), bc2 = Math.sqrt(1 - b2 ** t), decay = 1 - lr * weightDecay;
  for (let i = 0; i < x.length; i++) {
    const gi = g[i];
    const mi = (m[i] = b1 * m[i] + (1 - b1) * gi);
    const vi = (v[i] = b2 * v[i] + (1 - b2) * gi * gi);
    x[i] = x[i] * decay - (stepSize * mi) / (Math.sqrt(vi) / bc2 + eps);
  }
}
