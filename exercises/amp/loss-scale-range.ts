import { notImplemented } from "../harness/index.js";

/**
 * Exercise 4.1 — which loss scales fit a step's gradients?
 *
 * What: the range of power-of-two loss scales S = 2^k that this step's
 * gradients can take in fp16: no scaled gradient overflows, and at most the
 * share `maxUnderflowFraction` of the nonzero gradients underflows to zero.
 * The inverse of the page's exponent histogram, where you slide S by hand.
 * Input: `grads`, the step's fp32 gradients (a Float32Array, up to a million
 * values, not modified); `maxUnderflowFraction` in [0, 1].
 * Output: `{ minLog2, maxLog2 }`, the smallest and the largest k, with k an
 * integer in [−126, 127] (a float32 scale); null when no k fits.
 * Convention: a gradient g is scaled exactly (S·g, S a power of two) and then
 * rounded to fp16 as the chapter's "What fp16 does to gradients" describes
 * (round to nearest, ties to even, subnormals, overflow to ±Infinity); it
 * overflows when S·g rounds to ±Infinity and underflows when g ≠ 0 and S·g
 * rounds to 0. Zeros of fp32 are not counted. The scales fit when nothing
 * overflows and (underflowing gradients) ≤ maxUnderflowFraction × (nonzero
 * gradients), compared in float64. A gradient that is already ±Infinity or
 * NaN: no scale fits.
 * Errors: a maxUnderflowFraction outside [0, 1] (or not a number) throws a
 * RangeError naming it.
 * Example: lossScaleRange(Float32Array.of(1e-9, 3e-6, 0.25), 0) →
 * { minLog2: 5, maxLog2: 17 }.
 *
 * @param grads fp32 gradients of one step
 * @param maxUnderflowFraction the share of nonzero gradients allowed to become 0
 * @returns the range of log₂ S, or null
 * @throws {RangeError} on a bad maxUnderflowFraction
 */
export function lossScaleRange(grads: Float32Array, maxUnderflowFraction: number): { minLog2: number; maxLog2: number } | null {
  return notImplemented("4.1");
}
