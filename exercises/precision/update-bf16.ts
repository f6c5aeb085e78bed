import { notImplemented } from "../harness/index.js";

/** What {@link updateBf16} returns: two new arrays of bf16 values. */
export interface Bf16Update {
  weights: Float32Array;
  carry: Float32Array;
}

/**
 * Exercise 1.5 (build it) — bf16 weights without an fp32 master copy.
 *
 * What: add one optimizer update to weights stored in bf16, with no fp32 copy
 * of them, and lose nothing that matters: an update smaller than half the
 * spacing of its weight, which rounding alone drops, must still count over
 * many steps. Besides each weight you keep one more bf16 number, its carry.
 * The grader plugs your function into the course's training (lib/precision
 * `trainQuantized` with `masterWeights: false`): after every AdamW step it is
 * called once per parameter tensor with the bf16 weights, the update AdamW
 * adds this step, and the carry your previous call returned (zeros at first).
 * Input: `weights` (bf16 values), `update` (float32 values), `carry` (bf16
 * values): Float32Arrays of one length n (up to a million), not modified.
 * Output: `{ weights, carry }`, two new Float32Arrays of n bf16 values such
 * that, element by element: the carry is what the weight still owes, so
 * new weight + new carry = weight + update + carry, exact to within the
 * rounding of the new carry to bf16 (half its spacing); and the new weight is
 * the bf16 value nearest to weight + update + carry (ties to even). When the
 * new weight is not finite (overflow, a NaN update) the new carry is 0.
 * Convention: bf16 as in exercise 1.2 (PyTorch's rounding); synchronous.
 * Errors: `update` or `carry` of another length than `weights` throws a
 * RangeError naming it: `update has 3 values but weights has 2`.
 * Example: starting from weights [1] and carry [0], ten calls each with
 * update [0.001] (float32) leave weights [1.0078125]: the sum 1.01 is nearer
 * to 1 + 2^−7 than to 1 + 2^−6, although every single update is below half
 * of bf16's spacing 2^−7 at 1 and is lost by rounding alone.
 * Graded: each call (the rules above, on random values, a million weights),
 * then training: the weights and the losses of a 60-step run must stay near
 * those of the run with an fp32 master copy (relative distance of the weights
 * ≤ 0.5 %, mean loss of the last 10 steps within 0.002), where rounding alone
 * drifts by about 3 % and 0.015.
 * The page: src/precision.md, "Training in 16 bits: the quantize step" (why
 * updates are lost), and "Accumulation: why sums need more precision than
 * storage". You may reuse your exercise 1.2.
 *
 * @param weights the bf16 weights of one parameter tensor
 * @param update what the optimizer adds to each weight this step
 * @param carry what each weight still owes from earlier steps (bf16)
 * @returns the new weights and the new carry
 * @throws {RangeError} when update or carry has another length than weights
 */
export function updateBf16(weights: Float32Array, update: Float32Array, carry: Float32Array): Bf16Update {
  return notImplemented("1.5");
}
