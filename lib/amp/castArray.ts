/**
 * Fast elementwise casts of Float32Arrays to a training precision, used in the
 * AMP loop's inner loops (forward, backward, matmul accumulation).
 *
 * They are lib/precision's fast path (lib/precision/fastRound.ts, tested
 * against the exact `round(format, x)` value by value), under the names the
 * AMP chapter uses.
 */
import { TRAIN_FORMATS, bf16round, castArray, fastRounder, roundArrayInPlace, type TrainFormat } from "../precision/fastRound.js";

export { bf16round, castArray };

/** The precisions of a simulated training step (lib/precision's TrainFormat). */
export type TrainPrecision = TrainFormat;

/**
 * Every {@link TrainPrecision}, for validation messages and figure legends.
 *
 * @example
 * TRAIN_PRECISIONS; // ["fp32", "fp16", "bf16"]
 * @see IEEE 754-2008 (binary32, binary16); Wang & Kanwar 2019, BFloat16: The secret to high performance on Cloud TPUs
 */
export const TRAIN_PRECISIONS: readonly TrainPrecision[] = TRAIN_FORMATS;

/**
 * The scalar cast for `precision` (lib/precision's fastRounder).
 * @param precision "fp32" | "fp16" | "bf16"
 * @returns a function number → number
 * @throws {RangeError} `format must be one of fp32, fp16, bf16, got "fp8"`
 * @example caster("fp16")(65520) // Infinity
 * @see IEEE 754-2008 §4.3.1 (round to nearest, ties to even); PyTorch c10/util/Half.h and c10/util/BFloat16.h (the fp32 → fp16/bf16 casts)
 */
export const caster: (precision: TrainPrecision) => (x: number) => number = fastRounder;

/**
 * Casts `x` to `precision` in place and returns it (for inner loops that own `x`).
 * @param precision "fp32" | "fp16" | "bf16"
 * @param x values, modified
 * @returns `x`
 * @throws {RangeError} `format must be one of fp32, fp16, bf16, got "fp8"`
 * @example castInPlace("fp16", Float32Array.of(70000)) // Float32Array [Infinity]
 * @see IEEE 754-2008 §4.3.1 (round to nearest, ties to even); PyTorch c10/util/Half.h and c10/util/BFloat16.h (the fp32 → fp16/bf16 casts)
 */
export const castInPlace: (precision: TrainPrecision, x: Float32Array) => Float32Array = roundArrayInPlace;
