/**
 * Which gpu.js backend ran a kernel, read from the kernel instance (so that a
 * fallback, e.g. WebGL2 → cpu, is reported as what actually ran).
 */
import gpujs from "gpu.js";

/**
 * The backend of a gpu.js kernel shortcut after its first run.
 * @param kernel the function returned by `gpu.createKernel(...)`
 * @returns "webgl2" | "webgl" | "headlessgl" | "webgpu" | "webasm" | "cpu" | "unknown"
 * @example backendName(kernel) // "webasm" in Node here, "webgl2" in Chromium
 * @see gpu.js 2.24 source, src/backend/ (the kernel classes CPUKernel, WebGLKernel, WebGL2Kernel,
 *   HeadlessGLKernel, WebAssemblyKernel) and its README, "Supported Backends"
 */
export function backendName(kernel: unknown): string {
  const inner = (kernel as { kernel?: unknown } | null)?.kernel;
  const g = gpujs as unknown as Record<string, (new (...a: never[]) => unknown) | undefined>;
  // subclasses before their parents: WebGL2Kernel and HeadlessGLKernel extend WebGLKernel
  const order: [string, string][] = [["WebGL2Kernel", "webgl2"], ["HeadlessGLKernel", "headlessgl"], ["WebGLKernel", "webgl"], ["WebGPUKernel", "webgpu"], ["WebAssemblyKernel", "webasm"], ["CPUKernel", "cpu"]];
  for (const [cls, name] of order) {
    const C = g[cls];
    if (C && inner instanceof C) return name;
  }
  return "unknown";
}
