import { notImplemented } from "../harness/index.js";

/**
 * Exercise 4.3 — unscale gradients and check them for inf/NaN.
 *
 * Backward ran on `scale · loss`, so every gradient carries the factor
 * `scale`. Return new Float32Arrays holding each gradient times
 * `Math.fround(1 / scale)` (PyTorch computes the reciprocal in float64 and
 * stores it as float32, then multiplies in float32), and `foundInf: true`
 * when any element of any INPUT tensor is ±Infinity or NaN (the step will then
 * be skipped; still return the multiplied values). Like PyTorch's kernel, test
 * the scaled gradients you were given, not the products: a finite gradient
 * times 1/scale > 1 may overflow float32, and that does not mark the step.
 *
 * Edge cases: an empty list or empty tensors; do not modify the inputs;
 * throw a RangeError mentioning `scale` when it is not a positive finite number.
 * Read: the chapter's "Unscale, then check" section; PyTorch's
 * `_amp_foreach_non_finite_check_and_unscale_`.
 *
 * @param grads the scaled gradients, one Float32Array per parameter
 * @param scale the loss scale they carry
 * @returns `{grads, foundInf}`
 * @example unscaleAndCheck([Float32Array.of(65536, 32768)], 65536) // {grads: [Float32Array [1, 0.5]], foundInf: false}
 */
export function unscaleAndCheck(grads: Float32Array[], scale: number): { grads: Float32Array[]; foundInf: boolean } {
  return notImplemented("4.3");
}
