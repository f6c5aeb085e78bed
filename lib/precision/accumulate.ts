/**
 * The precision-accumulation kernel: sequential sums with an fp16, bf16 or
 * fp32 accumulator on the GPU, one prefix length per thread.
 */
import gpujs from "gpu.js";
import { FORMATS } from "./formats.js";
import { kernelRoundToFormat } from "./kernelRoundToFormat.js";
import { backendName } from "./backendName.js";
import { checkAccumulateArgs, type AccumulatorFormat } from "./accumulateReference.js";

const { GPU } = gpujs;

/**
 * Options of {@link accumulate}.
 * @see gpu.js README, "`GPU` Settings" (mode) and "Supported Backends"
 */
export interface AccumulateOptions {
  /** gpu.js mode: "gpu" (default), "cpu", "webasm", "webgl2"… */
  mode?: string;
  /** Called with the backend that ran the kernel ("webgl2", "webasm", "cpu"…). */
  onBackend?: (backend: string) => void;
}

/**
 * For each n in `lengths`, sums values[0..n) sequentially with the accumulator
 * rounded to `accumulator` after every addition (thread k computes sum k).
 * Equal bit for bit to {@link accumulateReference} when the values are
 * representable in the accumulator format (or the accumulator is fp32).
 * The fp32 accumulator is rounded with the same function (m = 23), which is
 * the identity on float32 backends and makes the cpu backend (float64) agree.
 * @param values (N,) float32 addends
 * @param lengths (K,) prefix lengths in [0, N]
 * @param accumulator "fp32" | "fp16" | "bf16"
 * @param options `{mode, onBackend}` for gpu.js
 * @returns (K,) sums as float32
 * @throws {TypeError|RangeError} on bad arguments, naming the field
 * @example accumulate(new Float32Array(4096).fill(1), [1000, 2048, 4096], "fp16") // Float32Array [1000, 2048, 2048]
 * @see ./accumulateReference.ts
 */
export function accumulate(values: Float32Array, lengths: readonly number[], accumulator: AccumulatorFormat, options: AccumulateOptions = {}): Float32Array {
  checkAccumulateArgs(values, lengths, accumulator);
  if (lengths.length === 0) return new Float32Array(0);
  const f = FORMATS[accumulator];
  const maxLen = Math.max(1, ...lengths);
  const gpu = new GPU(options.mode ? { mode: options.mode as never } : {});
  try {
    gpu.addFunction(kernelRoundToFormat, {
      argumentTypes: { v: "Number", mantissaBits: "Number", emin: "Number", maxFinite: "Number", infinity: "Number" },
      returnType: "Number",
    });
    const kernel = gpu
      .createKernel(function (this: { thread: { x: number } }, xs: number[], ns: number[], m: number, emin: number, maxFinite: number, inf: number) {
        const n = ns[this.thread.x];
        let acc = 0.0;
        for (let i = 0; i < n; i++) {
          acc = kernelRoundToFormat(acc + xs[i], m, emin, maxFinite, inf);
        }
        return acc;
      })
      .setOutput([lengths.length])
      .setLoopMaxIterations(maxLen)
      .setPrecision("single")
      .setTactic("precision");
    try {
      const out = kernel(values, Float32Array.from(lengths), f.mantissaBits, f.emin, f.maxFinite, Infinity) as unknown as Float32Array;
      options.onBackend?.(backendName(kernel));
      return out instanceof Float32Array ? Float32Array.from(out) : Float32Array.from(out as ArrayLike<number>);
    } finally {
      kernel.destroy();
    }
  } finally {
    gpu.destroy();
  }
}
