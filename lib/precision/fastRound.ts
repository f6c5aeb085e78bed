/**
 * Fast rounding to the three formats a training step uses (fp32, fp16,
 * bf16), for the inner loops of the simulated models (lib/nn, lib/amp).
 *
 * `round(format, x)` is the definition, for every format and written for
 * reading; this module is the fast path, and its tests check it against
 * `round` value by value (float32 inputs, float64 inputs and near-ties).
 * fp16 uses `f16round` of @petamoriken/float16; bf16 rounds the float32 bits
 * and corrects the one case where the float32 rounding itself created a tie.
 */
import { f16round } from "@petamoriken/float16";

/**
 * The formats of a simulated training step.
 * @see the sources of {@link TRAIN_FORMATS}: Micikevicius et al. 2017, *Mixed Precision Training* (fp32 master weights, fp16 compute); Wang & Kanwar 2019 (bf16)
 */
export type TrainFormat = "fp32" | "fp16" | "bf16";

/**
 * Every {@link TrainFormat}, for validation messages and legends.
 * @example TRAIN_FORMATS.join(", ") // "fp32, fp16, bf16"
 * @see Micikevicius et al. 2017, *Mixed Precision Training* (fp32 master weights, fp16 compute); Wang & Kanwar 2019 (bf16)
 */
export const TRAIN_FORMATS: readonly TrainFormat[] = ["fp32", "fp16", "bf16"];

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/**
 * Rounds a number to bfloat16, ties to even, through its float32 bits. NaN
 * stays NaN; beyond bf16's largest finite value the result is ±Infinity,
 * like PyTorch's cast; −0 stays −0.
 * @param x any number (float64 inputs are rounded once, without double rounding)
 * @returns the bf16 value
 * @example bf16round(1.01171875) // 1.015625
 * @example bf16round(1 + 2 ** -8) // 1 (a tie, 1 is even)
 * @see PyTorch c10/util/BFloat16.h round_to_nearest_even; Wang & Kanwar 2019
 */
export function bf16round(x: number): number {
  f32[0] = x; // to float32 first (round to nearest even)
  if (Number.isNaN(f32[0])) return NaN;
  const bits = u32[0];
  if ((bits & 0xffff) === 0x8000 && f32[0] !== x) {
    // float32 rounding landed exactly on a bf16 tie although x is not one: the true value decides
    const away = Math.abs(x) > Math.abs(f32[0]);
    u32[0] = away ? ((bits + 0x8000) >>> 16) << 16 : (bits >>> 16) << 16;
    return f32[0];
  }
  const lsb = (bits >>> 16) & 1;
  u32[0] = ((bits + 0x7fff + lsb) >>> 16) << 16; // ties to even on the 16 dropped bits
  return f32[0];
}

/**
 * The scalar rounding function of `format`: Math.fround, f16round or {@link bf16round}.
 * @param format "fp32" | "fp16" | "bf16"
 * @returns a function number → number
 * @throws {RangeError} `format must be one of fp32, fp16, bf16, got "fp8"`
 * @example fastRounder("fp16")(65520) // Infinity
 * @see IEEE 754-2008 §4.3.1 (roundTiesToEven); ECMA-262 Math.fround; @petamoriken/float16 README (f16round); {@link bf16round}
 */
export function fastRounder(format: TrainFormat): (x: number) => number {
  switch (format) {
    case "fp32": return Math.fround;
    case "fp16": return f16round;
    case "bf16": return bf16round;
    default: throw new RangeError(`format must be one of ${TRAIN_FORMATS.join(", ")}, got "${String(format)}"`);
  }
}

/**
 * Rounds `x` to the nearest value of `format`, ties to even; equal to
 * `round(format, x)` for these three formats.
 * @param format "fp32" | "fp16" | "bf16"
 * @param x any number
 * @returns the nearest representable value; overflow gives ±Infinity, NaN stays NaN
 * @throws {RangeError} `format must be one of fp32, fp16, bf16, got "<format>"`
 * @example fastRound("fp16", 1 + 2 ** -11) // 1 (a tie, to even)
 * @see {@link round} (the definition); IEEE 754-2008 §4.3.1
 */
export function fastRound(format: TrainFormat, x: number): number {
  return fastRounder(format)(x);
}

/**
 * Rounds every element of `a` to `format` in place and returns `a` (a no-op
 * for fp32: a Float32Array already holds float32 values).
 * @param format the target format
 * @param a the array to round
 * @returns `a`
 * @throws {RangeError} as {@link fastRounder}
 * @example roundArrayInPlace("bf16", Float32Array.of(1.01171875)) // Float32Array [1.015625]
 * @see {@link fastRounder}; IEEE 754-2008 §4.3.1 (roundTiesToEven)
 */
export function roundArrayInPlace(format: TrainFormat, a: Float32Array): Float32Array {
  const r = fastRounder(format);
  if (format === "fp32") return a;
  for (let i = 0; i < a.length; i++) a[i] = r(a[i]);
  return a;
}

/**
 * A new Float32Array holding every element of `x` rounded to `format`
 * (fp16 and bf16 values are exact in float32); `x` is not modified.
 * @param format "fp32" | "fp16" | "bf16"
 * @param x values, any length
 * @returns the rounded copy
 * @throws {RangeError} as {@link fastRounder}
 * @example castArray("fp16", Float32Array.of(1e-8, 70000)) // Float32Array [0, Infinity]
 * @see PyTorch `Tensor.to(dtype)` (the cast it models); IEEE 754-2008 §4.3.1
 */
export function castArray(format: TrainFormat, x: Float32Array): Float32Array {
  return roundArrayInPlace(format, Float32Array.from(x));
}
