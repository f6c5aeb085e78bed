/**
 * How far a float32 SophiaG update (a gpu.js kernel's output) is from the float64 reference
 * {@link sophiagStep}, per coordinate, relative to the size of the terms that produced it.
 */
import { sophiagStep, validateSophiaG, SOPHIA_EPS, SOPHIAG_DEFAULTS, type SophiaGOptions } from "./sophiag.js";

/**
 * Compares a kernel's `{theta, m}` with `sophiagStep` on the same inputs.
 *
 * Scales (what one float32 rounding error is relative to): for m', |β1·m| + |(1 − β1)·g|; for θ',
 * |θ| + lr·(|β1·m| + |(1 − β1)·g|) / |ρ·bs·h + ε| where the reference ratio is not clipped (that
 * quotient is what rounding errors in m' are amplified by), else |θ| + lr. A float32 computation has
 * `worst*` of a few times 2⁻²⁴; a wrong placement of ρ, bs or ε, a missing weight decay or a flipped
 * sign gives a `worst*` near 1. A zero scale counts the difference itself.
 *
 * @param theta, grad, m, h the step's inputs (n each)
 * @param config `{lr, betas, rho, weightDecay, bs}` (sophia.py's defaults for omitted fields)
 * @param out the kernel's `{theta, m}` (n each)
 * @returns `{maxAbsTheta, maxAbsM, worstTheta, worstM, clipped}`: the largest absolute differences, the
 *   largest differences relative to their scale, and the reference's count of clipped coordinates
 * @throws {RangeError} as {@link sophiagStep}; `out.theta must have 3 elements, got 2`
 * @example
 * sophiagKernelError([1], [0.5], [0], [0.5], { lr: 0.1, betas: [0.5, 0.9], rho: 1, weightDecay: 0, bs: 1 },
 *   { theta: Float32Array.of(0.95), m: Float32Array.of(0.25) }).worstTheta; // |fround(0.95) − 0.95| / 1.05 ≈ 1.1e-8
 * @see Liuhong99/Sophia sophia.py `_single_tensor_sophiag` (commit 2fc52f24d4bc008658111b0237a70953ada22398); IEEE 754 binary32 (24 significant bits)
 */
export function sophiagKernelError(theta: ArrayLike<number>, grad: ArrayLike<number>, m: ArrayLike<number>, h: ArrayLike<number>,
  config: SophiaGOptions & { bs?: number }, out: { theta: ArrayLike<number>; m: ArrayLike<number> }) {
  const ref = sophiagStep(theta, grad, m, h, config);
  const { lr, betas, rho } = validateSophiaG(config), bs = config.bs ?? SOPHIAG_DEFAULTS.bs, n = theta.length;
  for (const k of ["theta", "m"] as const) if (out[k].length !== n) throw new RangeError(`out.${k} must have ${n} elements, got ${out[k].length}`);
  let maxAbsTheta = 0, maxAbsM = 0, worstTheta = 0, worstM = 0;
  for (let i = 0; i < n; i++) {
    const mSize = Math.abs(betas[0] * m[i]!) + Math.abs((1 - betas[0]) * grad[i]!);
    const den = rho * bs * h[i]! + SOPHIA_EPS, unclipped = Math.abs(ref.m[i]!) / den < 1;
    const scale = Math.abs(theta[i]!) + lr * (unclipped ? mSize / Math.abs(den) : 1);
    const dT = Math.abs(out.theta[i]! - ref.theta[i]!), dM = Math.abs(out.m[i]! - ref.m[i]!);
    maxAbsTheta = Math.max(maxAbsTheta, dT); maxAbsM = Math.max(maxAbsM, dM);
    worstTheta = Math.max(worstTheta, scale === 0 ? dT : dT / scale);
    worstM = Math.max(worstM, mSize === 0 ? dM : dM / mSize);
  }
  return { maxAbsTheta, maxAbsM, worstTheta, worstM, clipped: ref.clipped };
}
