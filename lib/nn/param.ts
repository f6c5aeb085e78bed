/**
 * Creating, clearing, copying and flattening parameters.
 */
import { gaussian, type Rng } from "../random.js";
import { roundArrayWith, type Format, type Quantize } from "./precision.js";
import type { Param } from "./types.js";

/**
 * A parameter of the given shape, filled with N(0, std²) samples (or zeros when std = 0).
 *
 * @param name e.g. "head.W"
 * @param shape e.g. [in, out]: integers >= 1; element count = product of the entries
 * @param std standard deviation of the initial values (0: zeros)
 * @param rng seeded generator
 * @returns a Param with a zeroed gradient
 * @throws {RangeError} `<name>: shape must be integers >= 1, got [3, 0]`; `<name>: std must be finite and >= 0, got NaN`
 * @example
 * createParam("b", [3], 0, mulberry32(1)).data; // Float32Array [0, 0, 0]
 * @see PyTorch torch.nn.init.normal_ docs; Box & Muller 1958 (the normal samples, lib/random `gaussian`)
 */
export function createParam(name: string, shape: number[], std: number, rng: Rng): Param {
  if (!Array.isArray(shape) || shape.length === 0 || shape.some((d) => !Number.isInteger(d) || d < 1)) {
    throw new RangeError(`${name}: shape must be integers >= 1, got [${String(shape)}]`);
  }
  if (!Number.isFinite(std) || std < 0) throw new RangeError(`${name}: std must be finite and >= 0, got ${std}`);
  const n = shape.reduce((a, b) => a * b, 1);
  const data = new Float32Array(n);
  if (std !== 0) for (let i = 0; i < n; i++) data[i] = std * gaussian(rng);
  return { name, shape: [...shape], data, grad: new Float32Array(n) };
}

/**
 * Sets every gradient to zero (PyTorch `optimizer.zero_grad()` with set_to_none=False).
 *
 * @param params the parameters; every `grad` is overwritten
 * @returns nothing
 * @example
 * zeroGrad(model.params); model.params.every((p) => p.grad.every((g) => g === 0)); // true
 * @see PyTorch torch.optim.Optimizer.zero_grad docs (set_to_none=False)
 */
export function zeroGrad(params: readonly Param[]): void {
  for (const p of params) p.grad.fill(0);
}

/**
 * All gradients concatenated in parameter order, as float64 numbers.
 *
 * @param params the parameters
 * @returns a Float64Array of Σ|p| elements
 * @example
 * flatGrad(model.params).length === parameterCount(model.params); // true
 * @see PyTorch torch.nn.utils.parameters_to_vector docs (the same flattening, applied to .grad)
 */
export function flatGrad(params: readonly Param[]): Float64Array {
  const out = new Float64Array(parameterCount(params));
  let o = 0;
  for (const p of params) { out.set(p.grad, o); o += p.data.length; }
  return out;
}

/**
 * All parameter values concatenated in parameter order.
 *
 * @param params the parameters
 * @returns a Float64Array of Σ|p| elements
 * @example
 * flatData([createParam("b", [2], 0, mulberry32(1))]); // Float64Array [0, 0]
 * @see PyTorch torch.nn.utils.parameters_to_vector docs
 */
export function flatData(params: readonly Param[]): Float64Array {
  const out = new Float64Array(parameterCount(params));
  let o = 0;
  for (const p of params) { out.set(p.data, o); o += p.data.length; }
  return out;
}

/**
 * The number of scalar parameters.
 *
 * @param params the parameters
 * @returns Σ over params of the product of the shape (a count of scalars, not bytes)
 * @example
 * parameterCount([createParam("W", [3, 4], 0, mulberry32(1)), createParam("b", [4], 0, mulberry32(1))]); // 16
 * @see nanoGPT `model.py` get_num_params (sum of p.numel() over parameters)
 */
export function parameterCount(params: readonly Param[]): number {
  return params.reduce((s, p) => s + p.data.length, 0);
}

/**
 * Copies values (and optionally rounds them to `format`) from `src` into `dst`, parameter by parameter.
 * Used for the low-precision working copy of fp32 master weights in mixed precision training.
 *
 * @param src parameters to read
 * @param dst parameters to overwrite (same names and shapes)
 * @param format round the copy to this format (default fp32: exact copy)
 * @param quantize optional replacement of the rounding to a 16-bit `format` (see `Quantize`; default: lib/precision's rounding)
 * @returns nothing (`dst` is overwritten)
 * @throws {RangeError} `dst must have the same parameters as src: <name> differs`
 * @example
 * copyParams(master.params, half.params, "fp16");
 * @see Micikevicius et al. 2017, §3.1 (fp32 master copy of weights)
 */
export function copyParams(src: readonly Param[], dst: readonly Param[], format: Format = "fp32", quantize?: Quantize): void {
  if (src.length !== dst.length) throw new RangeError(`dst must have the same parameters as src: ${dst.length} vs ${src.length} tensors`);
  for (let i = 0; i < src.length; i++) {
    if (src[i].name !== dst[i].name || src[i].data.length !== dst[i].data.length) {
      throw new RangeError(`dst must have the same parameters as src: ${dst[i].name} differs`);
    }
    dst[i].data.set(src[i].data);
    roundArrayWith(format, dst[i].data, quantize);
  }
}
