import gpujs from "gpu.js";
import type { ReduceFn } from "./addChunk.js";

const { GPU } = gpujs;

/**
 * gpu.js modes: "gpu" picks WebGL2/WebGL in a browser and "webasm"/headless GL in Node.
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
  /** The backend gpu.js chose (e.g. "webasm" in Node, "webgl2" in Chromium, "cpu"). */
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
  const gpu = mode === "gpu" ? new GPU() : new GPU({ mode }); // without a mode gpu.js picks (and reports) its best backend
  const kernel = gpu
    .createKernel(function (this: { thread: { x: number } }, a: number[], b: number[]) {
      return a[this.thread.x] + b[this.thread.x];
    })
    .setOutput([1])
    .setPrecision("single")
    .setDynamicOutput(true)
    .setDynamicArguments(true);
  const reduce: ReduceFn = (local, received) => {
    if (received.length !== local.length) {
      throw new RangeError(`received has length ${received.length}, expected ${local.length} (the local chunk's length)`);
    }
    if (local.length === 0) return new Float32Array(0);
    kernel.setOutput([local.length]);
    const out = kernel(local, received) as unknown as Float32Array; // (n)
    return Float32Array.from(out);
  };
  return {
    reduce,
    get backend() {
      return backendName(gpu as unknown as { Kernel: unknown; mode: string });
    },
    destroy() {
      kernel.destroy();
      gpu.destroy();
    },
  };
}

/** The backend gpu.js chose, by its kernel class (GL kernels all report mode "gpu"). */
function backendName(gpu: { Kernel: unknown; mode: string }): string {
  const g = gpujs as unknown as Record<string, unknown>;
  const names: [string, string][] = [["WebGL2Kernel", "webgl2"], ["WebGLKernel", "webgl"], ["HeadlessGLKernel", "headlessgl"], ["WebAssemblyKernel", "webasm"], ["CPUKernel", "cpu"], ["WebGPUKernel", "webgpu"]];
  for (const [cls, name] of names) if (g[cls] !== undefined && gpu.Kernel === g[cls]) return name;
  return gpu.mode;
}
