/**
 * The simulated number formats of the model, and the one rounding function
 * every op calls on its outputs.
 *
 * The definition is `lib/precision`'s `round(format, x)` (round to nearest,
 * ties to even; overflow to ±Infinity; NaN stays NaN). Because the model
 * rounds millions of values per step, {@link roundTo} is lib/precision's fast
 * path (`fastRound`), checked equal to `round` on random float32 and float64
 * values, edge cases and engineered near-ties (here and in
 * lib/precision/fastRound.test.ts).
 */
import { fastRound, roundArrayInPlace, type TrainFormat } from "../precision/fastRound.js";

/** A storage/compute format of the simulation. */
export type Format = TrainFormat;

/**
 * Every format of the simulation, for validation and menus.
 *
 * @example
 * FORMATS; // ["fp32", "fp16", "bf16"]
 * @see IEEE 754-2008 (binary32, binary16); Wang & Kanwar 2019, BFloat16: The secret to high performance on Cloud TPUs
 */
export const FORMATS: readonly Format[] = ["fp32", "fp16", "bf16"];

/** How the model computes: op outputs rounded to `compute`, matmul partial sums to `accumulate`. */
export interface Precision {
  /** Format of every op output (activations, gradients). */
  compute: Format;
  /** Format of the running sum inside a matmul (fp32 as on tensor cores, or the compute format). */
  accumulate: Format;
}

/**
 * Plain float32 everywhere (the default): op outputs and matmul partial sums in fp32.
 *
 * @example
 * FP32; // { compute: "fp32", accumulate: "fp32" }
 * @see IEEE 754-2008 binary32; PyTorch's default dtype torch.float32
 */
export const FP32: Precision = { compute: "fp32", accumulate: "fp32" };

/**
 * Rounds `x` to the nearest value of `format` (ties to even).
 *
 * @param format "fp32" | "fp16" | "bf16"
 * @param x any number
 * @returns the nearest representable value; overflow gives ±Infinity, NaN stays NaN
 * @throws {RangeError} `format must be one of fp32, fp16, bf16, got "<format>"`
 * @example
 * roundTo("fp16", 1 + 2 ** -11); // 1 (a tie, to even)
 * roundTo("bf16", 1.01171875);   // 1.015625
 * roundTo("fp16", 70000);        // Infinity
 * @see lib/precision `round` (the definition, tested equal); IEEE 754-2008 §4.3.1; Wang & Kanwar 2019 (bfloat16)
 */
export const roundTo: (format: Format, x: number) => number = fastRound;

/**
 * Rounds every element of `a` to `format`, in place (a no-op for fp32, since a Float32Array already holds float32).
 *
 * @param format the target format
 * @param a the array to round
 * @returns `a`
 * @throws {RangeError} `format must be one of fp32, fp16, bf16, got "<format>"`
 * @example
 * roundArray("bf16", Float32Array.of(1.01171875)); // Float32Array [1.015625]
 * @see lib/precision `round` (the definition, tested equal); IEEE 754-2008 §4.3.1; Wang & Kanwar 2019 (bfloat16)
 */
export const roundArray: (format: Format, a: Float32Array) => Float32Array = roundArrayInPlace;

/**
 * A replacement for the rounding of op outputs to a 16-bit format: takes the
 * values (float32) and the format, returns the rounded values (a new array or
 * the same one, same length). The course plugs a student's rounding in here
 * (exercise 1.5); `castArray` of lib/precision is the reference.
 */
export type Quantize = (values: Float32Array, format: "fp16" | "bf16") => Float32Array;

/**
 * Rounds every element of `a` to `format` in place, with `quantize` when one is
 * given and the format is fp16 or bf16, with {@link roundArray} otherwise (fp32:
 * a no-op). Without `quantize` it is exactly {@link roundArray}.
 *
 * @param format the target format
 * @param a the array to round (overwritten)
 * @param quantize optional replacement rounding (see {@link Quantize})
 * @returns `a`
 * @throws {RangeError} `format must be one of fp32, fp16, bf16, got "<format>"`;
 *   `quantize must return a Float32Array of <n> elements, got <what>` when the replacement returns something else
 * @example
 * roundArrayWith("bf16", Float32Array.of(1.01171875)); // Float32Array [1.015625]
 * roundArrayWith("bf16", Float32Array.of(1.01171875), (v) => v.map(Math.trunc)); // Float32Array [1]
 * @see lib/precision `castArray` (the reference rounding); IEEE 754-2008 §4.3.1
 */
export function roundArrayWith(format: Format, a: Float32Array, quantize?: Quantize): Float32Array {
  if (!quantize || format === "fp32") return roundArray(format, a);
  if (format !== "fp16" && format !== "bf16") return roundArray(format, a); // throws the format message
  const r = quantize(a, format);
  if (!(r instanceof Float32Array) || r.length !== a.length) {
    throw new RangeError(`quantize must return a Float32Array of ${a.length} elements, got ${r instanceof Float32Array ? `${r.length} elements` : Object.prototype.toString.call(r)}`);
  }
  if (r !== a) a.set(r);
  return a;
}

/**
 * Bytes one element of `format` occupies in memory.
 *
 * @param format the format
 * @returns bytes: 4 for fp32, 2 for fp16 and bf16
 * @throws {RangeError} `format must be one of fp32, fp16, bf16, got "<format>"`
 * @example
 * bytesPerElement("bf16"); // 2
 * @see IEEE 754-2008 (binary32: 32 bits, binary16: 16 bits); Wang & Kanwar 2019 (bfloat16: 16 bits); PyTorch torch.Tensor.element_size docs
 */
export function bytesPerElement(format: Format): number {
  if (format === "fp32") return 4;
  if (format === "fp16" || format === "bf16") return 2;
  throw new RangeError(`format must be one of ${FORMATS.join(", ")}, got "${String(format)}"`);
}

/**
 * Validates a precision setting.
 *
 * @param p the setting to check
 * @returns `p`
 * @throws {RangeError} `precision.compute must be one of fp32, fp16, bf16, got "<x>"` (same for accumulate)
 * @example
 * checkPrecision({ compute: "bf16", accumulate: "fp32" }); // { compute: "bf16", accumulate: "fp32" }
 * checkPrecision({ compute: "fp8", accumulate: "fp32" } as never); // throws `precision.compute must be one of fp32, fp16, bf16, got "fp8"`
 * @see Micikevicius et al. 2017, Mixed Precision Training (fp16 compute with fp32 accumulation)
 */
export function checkPrecision(p: Precision): Precision {
  for (const k of ["compute", "accumulate"] as const) {
    if (!FORMATS.includes(p?.[k])) throw new RangeError(`precision.${k} must be one of ${FORMATS.join(", ")}, got "${String(p?.[k])}"`);
  }
  return p;
}
