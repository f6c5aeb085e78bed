/**
 * Adding an update to 16-bit weights without an fp32 master copy, and without
 * losing what rounding drops: a 16-bit carry per weight keeps the part of each
 * update that the rounded weight could not take (compensated, or Kahan,
 * summation), and the next update adds it back.
 */
import { fastRounder, type TrainFormat } from "./fastRound.js";

/** What {@link compensatedUpdate} returns: new arrays, every value a value of the format. */
export interface CompensatedUpdate {
  /** The new 16-bit weights. */
  weights: Float32Array;
  /** The new 16-bit carry: what the weights still owe, to be added with the next update. */
  carry: Float32Array;
}

/**
 * Applies `update` to 16-bit `weights` with a 16-bit `carry` per weight, so that
 * updates smaller than half a spacing of the weight are not lost: with
 * y = update + carry, the weight becomes w' = round(w + y) and the carry keeps
 * round(y − (w' − w)), the part of y that the rounding dropped (w' − w is exact).
 * The sum w + carry follows the exact sum of the updates to within the
 * rounding of the carries (a relative 2^−(m+1) of each carry).
 *
 * @param format the format of the weights and of the carry ("fp16" or "bf16"; "fp32" works too)
 * @param weights the current weights, values of `format`, length n
 * @param update what the optimizer adds this step (float32), length n
 * @param carry the current carry, values of `format` (zeros before the first step), length n
 * @returns new arrays: the weights and the carry after the update
 * @throws {RangeError} `update has 3 values but weights has 2` (or carry), and as {@link fastRounder} for a bad format
 * @example
 * // bf16 around 1 has a spacing of 2^-7: an update of 2^-10 is lost by rounding, kept by the carry
 * compensatedUpdate("bf16", Float32Array.of(1), Float32Array.of(2 ** -10), Float32Array.of(0))
 * // { weights: Float32Array [1], carry: Float32Array [0.0009765625] }; after eight such steps: weights [1.0078125], carry [0]
 * @see Kahan 1965, Further remarks on reducing truncation errors (compensated summation); Zamirai et al. 2020,
 *   Revisiting BFloat16 Training (Kahan summation for 16-bit weights without a master copy)
 */
export function compensatedUpdate(format: TrainFormat, weights: Float32Array, update: Float32Array, carry: Float32Array): CompensatedUpdate {
  const round = fastRounder(format);
  for (const [name, a] of [["update", update], ["carry", carry]] as const) {
    if (a.length !== weights.length) throw new RangeError(`${name} has ${a.length} values but weights has ${weights.length}`);
  }
  const w = new Float32Array(weights.length), c = new Float32Array(weights.length);
  for (let i = 0; i < weights.length; i++) {
    const y = update[i] + carry[i]; // float64: exact for float32 inputs of close exponents, and within 2^-53 otherwise
    const next = round(weights[i] + y);
    w[i] = next;
    c[i] = Number.isFinite(next) ? round(y - (next - weights[i])) : 0;
  }
  return { weights: w, carry: c };
}
