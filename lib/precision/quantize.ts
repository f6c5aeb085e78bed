/**
 * A gpu.js kernel that rounds a Float32Array to bf16, fp16 or tf32 values
 * (stored back as float32), equal bit for bit to `round` on every backend.
 */
import { createKernelContext, type GpuMode } from "../kernels/gpujs/createKernelContext.js";
import { getFormat } from "./formats.js";
import { kernelRoundToFormat } from "./kernelRoundToFormat.js";

/**
 * The formats the kernel supports: those whose values are all float32 values.
 * @see the sources of {@link createQuantizer}: gpu.js README (createKernel, setOutput, destroy); PyTorch `Tensor.to(torch.bfloat16 | torch.float16)` (the cast it reproduces); IEEE 754-2008 §4.3.1
 */
export type QuantizeFormat = "bf16" | "fp16" | "tf32";

/**
 * Options of {@link quantize} and {@link createQuantizer}.
 * @see the sources of {@link createQuantizer}: gpu.js README (createKernel, setOutput, destroy); PyTorch `Tensor.to(torch.bfloat16 | torch.float16)` (the cast it reproduces); IEEE 754-2008 §4.3.1
 */
export interface QuantizeOptions {
  /** gpu.js mode: "gpu" (default: the best backend here), "cpu", "webasm", "webgl2"… */
  mode?: string;
}

/**
 * A compiled quantize kernel; call `destroy()` when done.
 * @see the sources of {@link createQuantizer}: gpu.js README (createKernel, setOutput, destroy); PyTorch `Tensor.to(torch.bfloat16 | torch.float16)` (the cast it reproduces); IEEE 754-2008 §4.3.1
 */
export interface Quantizer {
  /** Rounds every value; returns a new array. */
  run(values: Float32Array): Float32Array;
  /** The gpu.js backend that runs the kernel, e.g. "webasm", "cpu", "webgl2". */
  backend: string;
  destroy(): void;
}

function checkFormat(format: string): QuantizeFormat {
  getFormat(format);
  if (format !== "bf16" && format !== "fp16" && format !== "tf32") {
    throw new TypeError(`format must be one of bf16, fp16, tf32 for quantize, got ${JSON.stringify(format)}`);
  }
  return format;
}

/**
 * Compiles the quantize kernel for `format` once, to run it on many arrays.
 * @param format "bf16" | "fp16" | "tf32"
 * @param options `{mode}` for gpu.js
 * @returns a {@link Quantizer}
 * @throws {TypeError} `format must be one of bf16, fp16, tf32 for quantize, got "fp8-e4m3"`; `run` throws
 *   `values must be a Float32Array, got [object Array]`
 * @example const q = createQuantizer("bf16"); q.run(new Float32Array([1.01171875])); q.destroy() // Float32Array [1.015625]
 * @see gpu.js README (createKernel, setOutput, destroy); PyTorch `Tensor.to(torch.bfloat16 | torch.float16)` (the cast it reproduces); IEEE 754-2008 §4.3.1
 */
export function createQuantizer(format: string, options: QuantizeOptions = {}): Quantizer {
  const f = getFormat(checkFormat(format));
  const ctx = createKernelContext((options.mode ?? "gpu") as GpuMode);
  // One thread rounds four values: one texel in, one texel out (lib/kernels/gpujs).
  const kernel = ctx.kernel("quantize", () => ({
    body: function (this: { thread: { x: number } }, xs: number[][], m: number, emin: number, maxFinite: number, inf: number) {
      const x = xs[this.thread.x];
      return [kernelRoundToFormat(x[0], m, emin, maxFinite, inf), kernelRoundToFormat(x[1], m, emin, maxFinite, inf),
        kernelRoundToFormat(x[2], m, emin, maxFinite, inf), kernelRoundToFormat(x[3], m, emin, maxFinite, inf)];
    } as never,
    argumentTypes: { xs: "Array1D(4)", m: "Float", emin: "Float", maxFinite: "Float", inf: "Float" },
    functions: [kernelRoundToFormat],
  }));
  return {
    run(values: Float32Array): Float32Array {
      if (!(values instanceof Float32Array)) throw new TypeError(`values must be a Float32Array, got ${Object.prototype.toString.call(values)}`);
      if (values.length === 0) return new Float32Array(0);
      return kernel.run([values, f.mantissaBits, f.emin, f.maxFinite, Infinity], values.length);
    },
    backend: ctx.backend,
    destroy: () => ctx.destroy(),
  };
}

/**
 * Rounds every value of a Float32Array to `format` (round to nearest, ties to
 * even, subnormals, overflow to ±Infinity) on the GPU when one is available,
 * returning float32 values equal bit for bit to `round(format, x)`.
 * Zero and finite float32 inputs are rounded; ±Infinity stays ±Infinity.
 * @param values (N,) float32 values; not modified
 * @param format "bf16" | "fp16" | "tf32"
 * @param options `{mode}`: gpu.js mode, default the best backend
 * @returns (N,) a new Float32Array
 * @throws {TypeError} on another format or a non-Float32Array input
 * @example quantize(new Float32Array([1 + 2 ** -11, 65520]), "fp16") // Float32Array [1, Infinity]
 * @see ./round.ts
 */
export function quantize(values: Float32Array, format: string, options: QuantizeOptions = {}): Float32Array {
  const q = createQuantizer(format, options);
  try {
    return q.run(values);
  } finally {
    q.destroy();
  }
}
