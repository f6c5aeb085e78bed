/**
 * Fast elementwise casts of Float32Arrays to a training precision, used in the
 * AMP loop's inner loops (forward, backward, matmul accumulation).
 *
 * `lib/precision` has the general, exact `round(format, x)` for any format;
 * this module is the fast path for the three formats a training step uses,
 * and its tests check it against `lib/precision`'s `round` value by value.
 */
import { f16round } from "@petamoriken/float16";

/** The precisions of a simulated training step. */
export type TrainPrecision = "fp32" | "fp16" | "bf16";

/** Every {@link TrainPrecision}, for validation messages and figure legends. */
export const TRAIN_PRECISIONS: readonly TrainPrecision[] = ["fp32", "fp16", "bf16"];

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/**
 * Rounds a number to bfloat16 (ties to even), through its float32 bits: first
 * to float32, then the low 16 bits are rounded away. NaN stays NaN; values
 * beyond bf16's largest finite value become ±Infinity, like PyTorch's cast.
 * @param x any number
 * @returns the bf16 value as a number
 * @example bf16round(1.01171875) // 1.015625
 * @example bf16round(1 + 2 ** -8) // 1 (tie, 1 is even)
 * @see PyTorch c10/util/BFloat16.h round_to_nearest_even
 */
export function bf16round(x: number): number {
  f32[0] = x;
  const bits = u32[0]!;
  if ((bits & 0x7f800000) === 0x7f800000 && (bits & 0x007fffff) !== 0) return NaN;
  const lsb = (bits >>> 16) & 1;
  u32[0] = ((bits + 0x7fff + lsb) & 0xffff0000) >>> 0;
  return f32[0]!;
}

/**
 * The scalar cast for `precision`: Math.fround (fp32), f16round (fp16, IEEE
 * binary16 with subnormals) or {@link bf16round}.
 * @param precision "fp32" | "fp16" | "bf16"
 * @returns a function number → number
 * @throws {RangeError} `precision must be one of fp32, fp16, bf16, got "fp8"`
 * @example caster("fp16")(65520) // Infinity
 */
export function caster(precision: TrainPrecision): (x: number) => number {
  switch (precision) {
    case "fp32": return Math.fround;
    case "fp16": return f16round;
    case "bf16": return bf16round;
    default: throw new RangeError(`precision must be one of ${TRAIN_PRECISIONS.join(", ")}, got "${String(precision)}"`);
  }
}

/**
 * Returns a new Float32Array with every element of `x` cast to `precision`
 * (the array stays a Float32Array: fp16/bf16 values are exact in float32).
 * @param precision "fp32" | "fp16" | "bf16"
 * @param x values, any length
 * @returns the cast copy; `x` is not modified
 * @example castArray("fp16", Float32Array.of(1e-8, 70000)) // Float32Array [0, Infinity]
 */
export function castArray(precision: TrainPrecision, x: Float32Array): Float32Array {
  const c = caster(precision);
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = c(x[i]!);
  return out;
}

/** Casts `x` to `precision` in place and returns it (for inner loops that own `x`). */
export function castInPlace(precision: TrainPrecision, x: Float32Array): Float32Array {
  if (precision === "fp32") return x; // already float32
  const c = caster(precision);
  for (let i = 0; i < x.length; i++) x[i] = c(x[i]!);
  return x;
}
