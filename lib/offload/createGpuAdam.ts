/**
 * The Adam step as gpu.js kernels: WebGL2 in a browser, WebAssembly in Node.
 * Not exported from lib/offload/index.ts: importing it loads gpu.js.
 */
import gpujs from "gpu.js";
import type { AdamWOptions } from "../nn/index.js";
import { backendName } from "../precision/backendName.js";
import { adamHyper } from "./adamLoop.js";

const { GPU } = gpujs;

/** Compiled Adam kernels and how to free them. */
export interface GpuAdam {
  /**
   * One AdamW step at step t: new arrays (the inputs are not modified).
   * @throws RangeError `t must be an integer >= 1, got 0`; `g has 3 elements, x has 4`
   */
  step(x: Float32Array, g: Float32Array, m: Float32Array, v: Float32Array, t: number, o?: AdamWOptions): { x: Float32Array<ArrayBuffer>; m: Float32Array<ArrayBuffer>; v: Float32Array<ArrayBuffer> };
  /** The backend that ran (after the first step): "webgl2", "webasm", "cpu", … */
  readonly mode: string;
  /** Frees the kernels and the GPU context (always call it). */
  destroy(): void;
}

/**
 * Builds three element-wise kernels (new m, new v, new θ; the θ kernel
 * recomputes m and v rather than reading them back), one thread per element,
 * all in float32:
 * m' = m + (1 − β1)(g − m), v' = β2·v + (1 − β2)·g², θ' = θ(1 − lr·λ) − s·m'/(√v'/c₂ + ε)
 * with s = lr/(1 − β1ᵗ), c₂ = √(1 − β2ᵗ), 1 − β1 and 1 − β2 computed once on the host
 * (1 − β2 computed in float32 inside the kernel would be 1.3·10⁻⁵ off for β2 = 0.999).
 * Equal to lib/nn's AdamW (PyTorch's operation order, each step rounded to
 * float32) within a few float32 ulps: the constants s and c₂ enter as float32.
 *
 * @param mode gpu.js mode (undefined: the best available)
 * @returns the kernels; call destroy() when done
 * @example const k = createGpuAdam(); k.step(Float32Array.of(1), Float32Array.of(0.5), new Float32Array(1), new Float32Array(1), 1, { lr: 0.1, weightDecay: 0 }).x // [0.9]; k.destroy()
 * @see Loshchilov & Hutter 2019, Algorithm 2; PyTorch torch.optim.AdamW (single-tensor path: exp_avg.lerp_, the denominator sqrt(v)/sqrt(bias_correction2) + eps);
 *   DeepSpeed csrc/adam (the fused CPU and CUDA Adam kernels this stands in for)
 */
export function createGpuAdam(mode?: string): GpuAdam {
  const gpu = mode ? new GPU({ mode: mode as never }) : new GPU();
  const opts = { dynamicOutput: true, dynamicArguments: true, precision: "single" as const, tactic: "precision" as const, output: [1] };
  const km = gpu.createKernel(function (this: { thread: { x: number } }, g: number[], m: number[], c1: number) {
    const i = this.thread.x;
    return m[i] + c1 * (g[i] - m[i]);
  }, opts);
  const kv = gpu.createKernel(function (this: { thread: { x: number } }, g: number[], v: number[], b2: number, c2: number) {
    const i = this.thread.x;
    return v[i] * b2 + c2 * (g[i] * g[i]);
  }, opts);
  const kx = gpu.createKernel(function (this: { thread: { x: number } }, x: number[], g: number[], m: number[], v: number[], c1: number, b2: number, c2: number, decay: number, stepSize: number, bc2: number, eps: number) {
    const i = this.thread.x;
    const mi = m[i] + c1 * (g[i] - m[i]);
    const vi = v[i] * b2 + c2 * (g[i] * g[i]);
    const denom = Math.sqrt(vi) / bc2 + eps;
    return x[i] * decay - stepSize * (mi / denom);
  }, opts);
  const asF32 = (r: unknown): Float32Array<ArrayBuffer> => Float32Array.from(r as ArrayLike<number>);
  return {
    step(x, g, m, v, t, o = {}) {
      const { lr, betas: [b1, b2], eps, weightDecay } = adamHyper(o);
      if (!Number.isSafeInteger(t) || t < 1) throw new RangeError(`t must be an integer >= 1, got ${t}`);
      for (const [name, a] of [["g", g], ["m", m], ["v", v]] as const) if (a.length !== x.length) throw new RangeError(`${name} has ${a.length} elements, x has ${x.length}`);
      const n = x.length;
      if (n === 0) return { x: new Float32Array(0), m: new Float32Array(0), v: new Float32Array(0) };
      for (const k of [km, kv, kx]) k.setOutput([n]);
      const decay = Math.fround(1 - lr * weightDecay), stepSize = lr / (1 - b1 ** t), bc2 = Math.sqrt(1 - b2 ** t);
      const c1 = 1 - b1, c2 = 1 - b2; // on the host in float64: 1 − β2 computed in float32 is off by 1.3e-5 relative for β2 = 0.999
      const nx = asF32(kx(x as never, g as never, m as never, v as never, c1, b2, c2, decay, stepSize, bc2, eps));
      const nm = asF32(km(g as never, m as never, c1));
      const nv = asF32(kv(g as never, v as never, b2, c2));
      return { x: nx, m: nm, v: nv };
    },
    get mode() {
      const ran = backendName(kx);
      return ran === "unknown" ? gpu.mode : ran;
    },
    destroy() { km.destroy(); kv.destroy(); kx.destroy(); gpu.destroy(); },
  };
}
