import { notImplemented } from "../harness/index.js";

/**
 * Exercise 4.1 — one mixed-precision SGD step on a parameter vector.
 *
 * Contract. You hold the fp32 weights `master` (design B of the chapter:
 * `torch.amp`, where the parameters themselves are fp32). Backward ran on the
 * fp16 copy with the loss multiplied by `scale` and produced `scaledGrad16`:
 * fp16 values, stored in a Float32Array, some possibly ±Infinity or NaN after
 * an overflow. Return what `GradScaler.step` followed by plain SGD
 * (θ ← θ − lr·g, no momentum) leaves in the fp32 weights, and whether the step
 * was skipped:
 * - the gradient is unscaled as PyTorch's GradScaler does it (with
 *   fp32(1/scale), in float32), and the weights are updated in float32;
 * - a step whose scaled gradients hold any inf or NaN is skipped, tested on
 *   the gradients as given (still scaled), as GradScaler does: the weights come
 *   back unchanged;
 * - `master` comes back as a new Float32Array; the inputs are not modified.
 *
 * Rounding: the graded value is compared per element with a tolerance of
 * ulp(lr·g) + ulp(result) (float32 ulps), which accepts rounding lr·g to
 * float32 before subtracting, rounding the exact master − lr·g once, and
 * PyTorch's own arithmetic (`param.add_(grad, alpha=-lr)`: −lr converted to
 * float32, then one fused multiply-add on CUDA and in the vectorised CPU
 * kernel). Which order is not graded; fp16 anywhere in the update is.
 *
 * Errors: a `scale` that is not a positive finite number (0, negative, NaN,
 * Infinity) throws a RangeError whose message names `scale`. `master` and
 * `scaledGrad16` have the same length; `lr` >= 0.
 *
 * Read: the chapter's sections "Two designs of mixed precision", "The AMP
 * loop, step by step" and "Why fp32 master weights"; Micikevicius et al.
 * 2017, §3.1–3.2.
 *
 * @param master fp32 weights (length P)
 * @param scaledGrad16 gradient of scale·loss in fp16 values (length P)
 * @param scale the loss scale, a positive finite number
 * @param lr SGD learning rate, >= 0
 * @returns the new fp32 weights and whether the step was skipped
 * @throws {RangeError} `scale must be a positive finite number, got 0`
 * @example ampSgdStep(Float32Array.of(1), Float32Array.of(2), 65536, 1) // {master: Float32Array [0.999969482421875], skipped: false}
 */
export function ampSgdStep(master: Float32Array, scaledGrad16: Float32Array, scale: number, lr: number): { master: Float32Array; skipped: boolean } {
  return notImplemented("4.1");
}
