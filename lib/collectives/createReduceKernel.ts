import { createKernelContext, type GpuMode } from "../kernels/gpujs/createKernelContext.js";
import type { ReduceFn } from "./addChunk.js";

/**
 * gpu.js modes: "gpu" picks WebGL2/WebGL in a browser and, in Node, the cpu backend (lib/kernels/gpujs: "webasm" runs as cpu).
 * @see the sources of {@link createReduceKernel}: gpu.js README, "Dynamic Sized Arguments" and "Precision"
 */
export type KernelMode = "gpu" | "cpu" | "webgl" | "webgl2" | "headlessgl" | "webasm";

/**
 * A reduction kernel and the gpu.js instance that owns it. Call `destroy()` when done.
 * @see the sources of {@link createReduceKernel}: gpu.js README, "Dynamic Sized Arguments" and "Precision"
 */
export interface ReduceKernel {
  /** Adds a received chunk into the local one (new Float32Array), like addChunk. */
  reduce: ReduceFn;
  /** The backend that runs the kernel ("webgl2" in Chromium, "cpu" in Node). */
  backend: string;
  /** Frees the kernel and its gpu.js instance (undestroyed kernels leak tens of MB). */
  destroy(): void;
}

/**
 * Builds the reduction step of a collective as a gpu.js kernel:
 * out[i] = local[i] + received[i], one thread per element, in float32
 * (`precision: "single"`). A single float32 addition is correctly rounded on
 * every backend here, so it equals the CPU path {@link addChunk} bit for bit
 * (tests check it on 200,000 random values; the page checks WebGL2).
 *
 * @param mode gpu.js mode (default "gpu": the best available backend, reported in `backend`)
 * @returns `{reduce, backend, destroy}`
 * @throws RangeError from `reduce`: `received has length 2, expected 3 (the local chunk's length)`
 * @example
 * const k = createReduceKernel("cpu");
 * k.reduce(Float32Array.of(1, 2), Float32Array.of(3, 4)); // Float32Array [4, 6]
 * k.destroy();
 * @see gpu.js README, "Dynamic Sized Arguments" and "Precision"
 */
export function createReduceKernel(mode: KernelMode = "gpu"): ReduceKernel {
  const ctx = createKernelContext(mode as GpuMode);
  // One thread adds four elements: one texel of each input, one texel out (lib/kernels/gpujs).
  const kernel = ctx.kernel("reduce-add", () => ({
    body: function (this: { thread: { x: number } }, a: number[][], b: number[][]) {
      const x = a[this.thread.x];
      const y = b[this.thread.x];
      return [x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3]];
    } as never,
    argumentTypes: { a: "Array1D(4)", b: "Array1D(4)" },
  }));
  const reduce: ReduceFn = (local, received) => {
    if (received.length !== local.length) {
      throw new RangeError(`received has length ${received.length}, expected ${local.length} (the local chunk's length)`);
    }
    if (local.length === 0) return new Float32Array(0);
    return kernel.run([local, received], local.length); // (n)
  };
  return {
    reduce,
    backend: ctx.backend,
    destroy: () => ctx.destroy(),
  };
}
