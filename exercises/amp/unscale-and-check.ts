import { notImplemented } from "../harness/index.js";

/**
 * Exercise 4.3 — unscale gradients and check them for inf/NaN.
 *
 * Contract. Backward ran on `scale · loss`, so every gradient carries the
 * factor `scale`. Return, as `GradScaler.unscale_` computes them, the
 * unscaled gradients (new Float32Arrays, one per input tensor, same lengths)
 * and `foundInf`: whether the step must be skipped.
 * - Convention (PyTorch, `_amp_foreach_non_finite_check_and_unscale_`): the
 *   multiplier is 1/scale as a float32 value (computed in double, stored as
 *   float32), and the products are float32.
 * - The inf/NaN test looks at each gradient as given (still scaled), before
 *   it is multiplied by the inverse scale; the products are returned even
 *   when something was found.
 * - Inputs are not modified; an empty list or empty tensors are valid.
 *
 * Errors: a `scale` that is not a positive finite number (0, negative, NaN,
 * Infinity) throws a RangeError whose message names `scale`.
 *
 * Read: the chapter's section "Unscale, then check; unscale before clipping";
 * pytorch/pytorch aten/src/ATen/native/cuda/AmpKernels.cu.
 *
 * @param grads the scaled gradients, one Float32Array per parameter
 * @param scale the loss scale they carry
 * @returns `{grads, foundInf}`
 * @throws {RangeError} `scale must be a positive finite number, got 0`
 * @example unscaleAndCheck([Float32Array.of(65536, 32768)], 65536) // {grads: [Float32Array [1, 0.5]], foundInf: false}
 */
export function unscaleAndCheck(grads: Float32Array[], scale: number): { grads: Float32Array[]; foundInf: boolean } {
  return notImplemented("4.3");
}
