/**
 * Gradient clipping by global norm, as `torch.nn.utils.clip_grad_norm_`, and
 * what goes wrong when it is applied to still-scaled gradients.
 */
import { unscaleGrads } from "./unscaleGrads.js";

/**
 * Clips gradients to a maximum global L2 norm (PyTorch semantics).
 *
 * totalNorm = sqrt(Σ_tensors Σ_i g_i²); coef = min(1, maxNorm / (totalNorm + 1e-6));
 * every gradient is multiplied by coef.
 *
 * @param grads gradient tensors (Float32Array each)
 * @param maxNorm the maximum norm, > 0
 * @returns `{grads, totalNorm, clipCoef}` (new arrays; totalNorm is the norm before clipping)
 * @throws {RangeError} `maxNorm must be a positive finite number, got 0`
 * @example clipGradNorm([Float32Array.of(3, 4)], 1) // {totalNorm: 5, clipCoef: 1/(5+1e-6), grads: [≈0.6, ≈0.8]}
 * @see pytorch/pytorch torch/nn/utils/clip_grad.py `clip_grad_norm_` (clip_coef = max_norm / (total_norm + 1e-6), clamped to 1)
 */
export function clipGradNorm(grads: readonly Float32Array[], maxNorm: number): { grads: Float32Array[]; totalNorm: number; clipCoef: number } {
  if (!(typeof maxNorm === "number" && maxNorm > 0 && Number.isFinite(maxNorm))) throw new RangeError(`maxNorm must be a positive finite number, got ${maxNorm}`);
  let sq = 0;
  for (const g of grads) for (let i = 0; i < g.length; i++) sq += g[i]! * g[i]!;
  const totalNorm = Math.fround(Math.sqrt(sq));
  const clipCoef = Math.min(1, Math.fround(maxNorm / (totalNorm + 1e-6)));
  return { grads: grads.map((g) => g.map((v) => v * clipCoef)), totalNorm, clipCoef };
}

/** The two orders of clipping and unscaling, side by side. */
export interface ClipOrderComparison {
  /** True gradient norm (after unscaling). */
  trueNorm: number;
  /** Norm that clip_grad_norm_ sees on scaled gradients: scale × trueNorm. */
  scaledNorm: number;
  /** Right order (unscale_, then clip): the update's gradients and their norm. */
  right: { grads: Float32Array[]; norm: number; clipCoef: number };
  /** Wrong order (clip the scaled gradients, then unscale in step): the gradients and their norm. */
  wrong: { grads: Float32Array[]; norm: number; clipCoef: number };
}

function norm(gs: readonly Float32Array[]): number {
  let s = 0;
  for (const g of gs) for (let i = 0; i < g.length; i++) s += g[i]! * g[i]!;
  return Math.sqrt(s);
}

/**
 * Shows why `scaler.unscale_(optimizer)` must come before clipping: clipping
 * scaled gradients compares maxNorm with scale·‖g‖, so it clips (almost)
 * always, and after the later unscale the update's norm is maxNorm/scale
 * instead of min(‖g‖, maxNorm).
 * @param scaledGrads gradients as backward produced them (multiplied by `scale`)
 * @param scale the loss scale
 * @param maxNorm the clipping threshold
 * @returns {@link ClipOrderComparison}
 * @example compareClipOrder([Float32Array.of(3 * 65536, 4 * 65536)], 65536, 1).wrong.norm // ≈ 1/65536
 * @see https://pytorch.org/docs/stable/notes/amp_examples.html#gradient-clipping
 */
export function compareClipOrder(scaledGrads: readonly Float32Array[], scale: number, maxNorm: number): ClipOrderComparison {
  const unscaled = unscaleGrads(scaledGrads, scale).grads;
  const right = clipGradNorm(unscaled, maxNorm);
  const wrongClipped = clipGradNorm(scaledGrads, maxNorm);
  const wrong = unscaleGrads(wrongClipped.grads, scale).grads;
  return {
    trueNorm: norm(unscaled),
    scaledNorm: wrongClipped.totalNorm,
    right: { grads: right.grads, norm: norm(right.grads), clipCoef: right.clipCoef },
    wrong: { grads: wrong, norm: norm(wrong), clipCoef: wrongClipped.clipCoef },
  };
}
