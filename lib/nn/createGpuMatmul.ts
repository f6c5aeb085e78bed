/**
 * The model's matmul as a gpu.js kernel: WebGL2 in a browser, WebAssembly
 * ("webasm") or plain JavaScript ("cpu") in Node. Opt-in: the CPU
 * {@link matmul} stays the default because it is faster for tiny shapes and
 * can simulate low-precision accumulation.
 */
import gpujs from "gpu.js";
import { checkMatmul, type MatmulShape } from "./matmul.js";
import { backendName } from "../precision/backendName.js";
import type { Format } from "./precision.js";
import type { MatmulFn } from "./types.js";

const { GPU } = gpujs;

/** A compiled matmul kernel and how to free it. */
export interface GpuMatmul {
  /** Same contract as the CPU matmul; only accumulate = "fp32" (the kernel's native float). */
  matmul: MatmulFn;
  /** The backend that ran the kernel (after the first call; before it, gpu.js's requested mode): "webgl2", "webgl", "webasm", "cpu", … */
  mode: string;
  /** Frees the kernel and the GPU context (always call it). */
  destroy(): void;
}

/**
 * Creates a gpu.js matmul kernel. Each output element c[i, j] is one thread
 * summing a[i, k]·b[k, j] over k in increasing order in float32.
 *
 * Equality with the CPU path: both accumulate in order, but a backend may
 * keep the running sum in higher precision or fuse multiply-adds, so results
 * agree within |Δc[i, j]| ≤ K · 2⁻²³ · Σ_k |a[i, k]·b[k, j]| (the
 * inner-product error bound, Higham 2002 §3.1), not bit for bit.
 *
 * @param mode gpu.js mode: undefined (best available), "gpu", "webgl2", "cpu", …
 * @returns the kernel wrapper; call destroy() when done
 * @throws {RangeError} from matmul: `accumulate must be "fp32" in the gpu.js kernel, got "fp16"`, and shape errors
 * @example
 * const k = createGpuMatmul();
 * k.matmul(Float32Array.of(1, 2, 3, 4), Float32Array.of(5, 6, 7, 8), { M: 2, K: 2, N: 2 }, "fp32"); // [19, 22, 43, 50]
 * k.destroy();
 * @see https://github.com/gpujs/gpu.js (createKernel, dynamicOutput)
 */
export function createGpuMatmul(mode?: string): GpuMatmul {
  const gpu = mode ? new GPU({ mode: mode as never }) : new GPU();
  const kernel = gpu.createKernel(function (this: { thread: { x: number; y: number } }, a: number[], b: number[], M: number, K: number, N: number, transA: number, transB: number) {
    let s = 0;
    for (let k = 0; k < K; k++) {
      let x = 0;
      if (transA > 0) { x = a[k * M + this.thread.y]; } else { x = a[this.thread.y * K + k]; }
      let y = 0;
      if (transB > 0) { y = b[this.thread.x * K + k]; } else { y = b[k * N + this.thread.x]; }
      s += x * y;
    }
    return s;
  }, { dynamicOutput: true, dynamicArguments: true, precision: "single", tactic: "precision", output: [1, 1] });
  const run = (a: Float32Array, b: Float32Array, shape: MatmulShape, accumulate: Format): Float32Array => {
    checkMatmul(a, b, shape);
    if (accumulate !== "fp32") throw new RangeError(`accumulate must be "fp32" in the gpu.js kernel, got "${accumulate}"`);
    const { M, K, N } = shape;
    kernel.setOutput([N, M]); // thread.x: column j, thread.y: row i
    const rows = kernel(a as never, b as never, M, K, N, shape.transA ? 1 : 0, shape.transB ? 1 : 0) as unknown as Float32Array[];
    const c = new Float32Array(M * N);
    for (let i = 0; i < M; i++) c.set(rows[i], i * N); // (M, N)
    return c;
  };
  return {
    matmul: run,
    get mode() {
      const ran = backendName(kernel);
      return ran === "unknown" ? gpu.mode : ran;
    },
    destroy: () => { kernel.destroy(); gpu.destroy(); },
  };
}
