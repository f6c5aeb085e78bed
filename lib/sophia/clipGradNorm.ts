/**
 * Global gradient-norm clipping as `torch.nn.utils.clip_grad_norm_` (norm_type 2), which both
 * training scripts of Liuhong99/Sophia (`train_sophiag.py`, `train_adam.py`) apply with
 * `grad_clip = 1.0` before every optimizer step, and `train_sophiag.py` also before `update_hessian`.
 */
import type { Param } from "../nn/index.js";

/**
 * Scales every gradient in place by min(1, maxNorm / (‖g‖₂ + 1e-6)), where ‖g‖₂ is the norm of all
 * gradients together, as if concatenated into one vector (PyTorch's `clip_grad_norm_`: the 1e-6 and
 * the clamp at 1 are its own). Returns the norm BEFORE clipping, as PyTorch does; the training script
 * counts a step as clipped when that norm exceeds `grad_clip` (its `clip_time` / `train/clip_rate`).
 *
 * @param params lib/nn parameters whose `grad` arrays are scaled (mutated)
 * @param maxNorm the largest allowed norm, finite, > 0 (the scripts: 1.0)
 * @returns the total 2-norm of the gradients before clipping (float64)
 * @throws {RangeError} `maxNorm must be a finite number > 0, got 0`; `grad of w[1] must be finite, got NaN` (nothing is scaled then)
 * @example
 * const p = { name: "w", shape: [2], data: new Float32Array(2), grad: Float32Array.of(3, 4) };
 * clipGradNorm([p], 1); // 5; p.grad ≈ [0.6, 0.8] (scaled by 1 / (5 + 1e-6))
 * @see PyTorch torch/nn/utils/clip_grad.py `clip_grad_norm_` (clip_coef = max_norm / (total_norm + 1e-6),
 *   clamped to 1.0); Liuhong99/Sophia train_sophiag.py lines 303–305, 366–368 and 417–419 (commit a7e157229b71d58cf995d32854f1be15c265b350)
 */
export function clipGradNorm(params: readonly Param[], maxNorm: number): number {
  if (!(Number.isFinite(maxNorm) && maxNorm > 0)) throw new RangeError(`maxNorm must be a finite number > 0, got ${maxNorm}`);
  let sq = 0;
  for (const p of params) {
    const g = p.grad;
    for (let i = 0; i < g.length; i++) {
      if (!Number.isFinite(g[i])) throw new RangeError(`grad of ${p.name}[${i}] must be finite, got ${g[i]}`);
      sq += g[i]! * g[i]!;
    }
  }
  const norm = Math.sqrt(sq), coef = Math.min(1, maxNorm / (norm + 1e-6));
  if (coef < 1) for (const p of params) for (let i = 0; i < p.grad.length; i++) p.grad[i] = p.grad[i]! * coef;
  return norm;
}
