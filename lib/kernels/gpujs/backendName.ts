/**
 * Which gpu.js backend runs a kernel, read from the kernel instance or from a GPU's
 * kernel class (so that a fallback, e.g. WebGL2 → cpu, is reported as what runs).
 */
import gpujs from "gpu.js";

/** Kernel classes, subclasses before their parents: WebGL2Kernel and HeadlessGLKernel extend WebGLKernel. */
const ORDER: [string, string][] = [["WebGL2Kernel", "webgl2"], ["HeadlessGLKernel", "headlessgl"], ["WebGLKernel", "webgl"], ["WebGPUKernel", "webgpu"], ["WebAssemblyKernel", "webasm"], ["CPUKernel", "cpu"]];

/**
 * The backend of a gpu.js kernel shortcut after its first run, or of a `GPU` instance.
 * @param kernel the function returned by `gpu.createKernel(...)`, or a `new GPU(...)`
 * @returns "webgl2" | "webgl" | "headlessgl" | "webgpu" | "webasm" | "cpu" | "unknown"
 * @example backendName(new GPU({ mode: "cpu" })) // "cpu"; backendName(kernel) // "webgl2" in Chromium
 * @see gpu.js 2.24 source, src/backend/ (the kernel classes CPUKernel, WebGLKernel, WebGL2Kernel,
 *   HeadlessGLKernel, WebAssemblyKernel) and its README, "Supported Backends"
 */
export function backendName(kernel: unknown): string {
  const k = kernel as { kernel?: unknown; Kernel?: unknown } | null;
  const g = gpujs as unknown as Record<string, (new (...a: never[]) => unknown) | undefined>;
  for (const [cls, name] of ORDER) {
    const C = g[cls];
    if (!C) continue;
    if (k?.kernel instanceof C || k?.Kernel === C) return name;
  }
  return "unknown";
}
