import { notImplemented } from "../harness/index.js";

/**
 * Exercise 1.5 (build it) — the quantize step of a training run in fp16 or bf16.
 *
 * What: round every element of a float32 tensor to fp16 or bf16, as PyTorch's
 * `tensor.to(torch.float16)` / `tensor.to(torch.bfloat16)` does. The grader
 * plugs this function into the course's training (lib/precision
 * `trainQuantized`, which runs lib/nn's model): it makes the 16-bit working
 * copy of the fp32 master weights before every step and rounds every
 * activation and gradient of the forward and backward passes. Your weights
 * after training must equal the reference run's bit for bit.
 * Input: `values`, a Float32Array of any length (not modified); `format`,
 * "fp16" or "bf16".
 * Output: a new Float32Array of the same length (never `values` itself),
 * element i the `format` value nearest to values[i].
 * Convention: round to nearest, ties to even (IEEE 754-2008 §4.3.1); fp16 is
 * IEEE binary16 (5 exponent bits, 10 fraction bits), bf16 is float32's sign
 * and 8 exponent bits with 7 fraction bits (Wang & Kanwar 2019); subnormals
 * kept; a value that rounds beyond the largest finite value becomes
 * ±Infinity; NaN stays NaN; −0 stays −0 (PyTorch c10/util/Half.h and BFloat16.h).
 * Errors: `format` other than "fp16" or "bf16" throws a RangeError
 * `format must be "fp16" or "bf16", got "<format>"`; `values` that is not a
 * Float32Array throws a TypeError `values must be a Float32Array`.
 * Example: quantize(Float32Array.of(1.01171875, 65520, 1e-8), "bf16")
 *   → Float32Array [1.015625, 65536, 1.0011717677116394e-8]; with "fp16"
 *   → Float32Array [1.01171875, Infinity, 0].
 * The page derives the recipe: src/precision.md, "Training in 16 bits: the quantize step".
 * You may reuse your exercises 1.2 and 1.3.
 *
 * @param values a float32 tensor, flattened
 * @param format "fp16" or "bf16"
 * @returns a new Float32Array, every element rounded to `format`
 * @throws {RangeError} on any other format
 * @throws {TypeError} when values is not a Float32Array
 */
export function quantize(values: Float32Array, format: "fp16" | "bf16"): Float32Array {
  return notImplemented("1.5");
}
