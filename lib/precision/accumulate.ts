/**
 * The precision-accumulation kernel: sequential sums with an fp16, bf16 or
 * fp32 accumulator on the GPU, one prefix length per thread.
 */
import { FORMATS } from "./formats.js";
import { kernelRoundToFormat } from "./kernelRoundToFormat.js";
import { createKernelContext, type GpuMode } from "../kernels/gpujs/createKernelContext.js";
import { checkAccumulateArgs, type AccumulatorFormat } from "./accumulateReference.js";

/** acc, or round(acc + x) when i < n: one lane of the kernel's sequential sum. */
function accumulateLane(acc: number, x: number, i: number, n: number, m: number, emin: number, maxFinite: number, inf: number): number {
  if (i < n) {
    return kernelRoundToFormat(acc + x, m, emin, maxFinite, inf);
  }
  return acc;
}

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
  const ctx = createKernelContext((options.mode ?? "gpu") as GpuMode);
  try {
    // Thread t sums for the four lengths ns[4t … 4t + 3] at once (lib/kernels/gpujs: one texel out).
    const kernel = ctx.kernel(`accumulate ${maxLen}`, () => ({
      body: function (this: { thread: { x: number }; constants: { maxLen: number } }, xs: number[], ns: number[][], m: number, emin: number, maxFinite: number, inf: number) {
        const n = ns[this.thread.x];
        let a0 = 0.0;
        let a1 = 0.0;
        let a2 = 0.0;
        let a3 = 0.0;
        for (let i = 0; i < this.constants.maxLen; i++) {
          const x = xs[i];
          a0 = accumulateLane(a0, x, i, n[0], m, emin, maxFinite, inf);
          a1 = accumulateLane(a1, x, i, n[1], m, emin, maxFinite, inf);
          a2 = accumulateLane(a2, x, i, n[2], m, emin, maxFinite, inf);
          a3 = accumulateLane(a3, x, i, n[3], m, emin, maxFinite, inf);
        }
        return [a0, a1, a2, a3];
      } as never,
      argumentTypes: { xs: "Array", ns: "Array1D(4)", m: "Float", emin: "Float", maxFinite: "Float", inf: "Float" },
      constants: { maxLen },
      functions: [kernelRoundToFormat, accumulateLane],
      loopMaxIterations: maxLen + 1,
    }));
    const out = kernel.run([values.length > 0 ? values : new Float32Array(1), Float32Array.from(lengths), f.mantissaBits, f.emin, f.maxFinite, Infinity], lengths.length);
    options.onBackend?.(ctx.backend);
    return out;
  } finally {
    ctx.destroy();
  }
}
