/**
 * Unscaling gradients and checking them for inf/NaN, as PyTorch's
 * `_amp_foreach_non_finite_check_and_unscale_` does.
 */

/**
 * The float32 reciprocal PyTorch multiplies by: `scale.double().reciprocal().float()`.
 * @param scale the loss scale, > 0
 * @returns fp32(1 / scale)
 * @example invScale(65536) // 0.0000152587890625 (2^-16, exact)
 * @see pytorch/pytorch torch/amp/grad_scaler.py `unscale_` (inv_scale = scale.double().reciprocal().float())
 */
export function invScale(scale: number): number {
  return Math.fround(1 / scale);
}

/**
 * Returns unscaled copies of `grads` (each element g·fp32(1/scale), rounded to
 * float32) and whether any element was inf or NaN.
 *
 * Like PyTorch, the multiplication is done even when an inf/NaN is found (the
 * step will be skipped anyway), and with scale 1 the values are left as they are.
 *
 * @param grads gradient tensors, each a Float32Array (any lengths; empty allowed)
 * @param scale the loss scale the gradients carry, a positive finite number
 * @returns `{grads, foundInf}`; the inputs are not modified
 * @throws {RangeError} `scale must be a positive finite number, got 0`
 * @example unscaleGrads([Float32Array.of(65536, 32768)], 65536) // {grads: [Float32Array [1, 0.5]], foundInf: false}
 * @example unscaleGrads([Float32Array.of(1, Infinity)], 2).foundInf // true
 * @see pytorch/pytorch aten/src/ATen/native/cpu/AmpGradScalerKernels.cpp; torch/amp/grad_scaler.py `unscale_`
 */
export function unscaleGrads(grads: readonly Float32Array[], scale: number): { grads: Float32Array[]; foundInf: boolean } {
  if (!(typeof scale === "number" && scale > 0 && Number.isFinite(scale))) throw new RangeError(`scale must be a positive finite number, got ${scale}`);
  const inv = invScale(scale);
  let foundInf = false;
  const out = grads.map((g) => {
    const u = new Float32Array(g.length);
    for (let i = 0; i < g.length; i++) {
      const v = g[i]!;
      if (!Number.isFinite(v)) foundInf = true;
      u[i] = inv === 1 ? v : v * inv; // Float32Array store rounds to float32
    }
    return u;
  });
  return { grads: out, foundInf };
}

/**
 * True when any element of any tensor is ±Infinity or NaN (the found_inf check of GradScaler).
 *
 * @param grads gradient tensors (any lengths; empty allowed)
 * @returns whether a non-finite element exists
 * @example
 * hasInfOrNaN([Float32Array.of(1, 2), Float32Array.of(NaN)]); // true
 * hasInfOrNaN([]); // false
 * @see pytorch/pytorch aten/src/ATen/native/cpu/AmpGradScalerKernels.cpp; torch/amp/grad_scaler.py `unscale_`
 */
export function hasInfOrNaN(grads: readonly Float32Array[]): boolean {
  for (const g of grads) for (let i = 0; i < g.length; i++) if (!Number.isFinite(g[i]!)) return true;
  return false;
}
