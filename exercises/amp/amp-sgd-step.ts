import { notImplemented } from "../harness/index.js";

/**
 * Exercise 4.1 — one mixed-precision SGD step on a parameter vector.
 *
 * You hold fp32 master weights `master`. Backward ran on the fp16 copy with
 * the loss multiplied by `scale`, and produced `scaledGrad16` (fp16 values,
 * stored in a Float32Array; some may be ±Infinity or NaN after an overflow).
 * Do what GradScaler.step and the optimizer do, in fp32:
 * 1. unscale: g = scaledGrad16[i] × Math.fround(1 / scale), kept in float32
 *    (NOT rounded back to fp16: unscaled gradients can be far below fp16's range);
 * 2. if any g is inf/NaN, skip: return a copy of `master` and `skipped: true`;
 * 3. else update the fp32 master: master[i] − lr·g[i], rounded to float32
 *    (a Float32Array does that), and `skipped: false`. Rounding lr·g to
 *    float32 first, as PyTorch does, or rounding only the result are both
 *    accepted: the random checks allow 1 float32 ulp.
 *
 * Edge cases: do not modify the inputs; lengths are equal; scale and lr are
 * positive. Read: the chapter's "The AMP loop, step by step" section and
 * Micikevicius et al. 2017, §3.1 (FP32 master copy of weights).
 *
 * @param master fp32 master weights
 * @param scaledGrad16 gradient of scale·loss, in fp16 values
 * @param scale the loss scale
 * @param lr SGD learning rate
 * @returns the new master weights and whether the step was skipped
 * @example ampSgdStep(Float32Array.of(1), Float32Array.of(2), 65536, 1) // {master: Float32Array [0.999969482421875], skipped: false}
 */
export function ampSgdStep(master: Float32Array, scaledGrad16: Float32Array, scale: number, lr: number): { master: Float32Array; skipped: boolean } {
  return notImplemented("4.1");
}
