/**
 * The Adam step as gpu.js kernels: WebGL2 in a browser, WebAssembly in Node.
 * Not exported from lib/offload/index.ts: importing it loads gpu.js.
 */
import type { AdamWOptions } from "../nn/index.js";
import { createKernelContext, type GpuMode } from "../kernels/gpujs/createKernelContext.js";
import { createAdamWKernels } from "../kernels/gpujs/createAdamWKernels.js";
import { adamHyper } from "./adamLoop.js";


/** Compiled Adam kernels and how to free them. */
export interface GpuAdam {
  /**
   * One AdamW step at step t: new arrays (the inputs are not modified).
   * @throws RangeError `t must be an integer >= 1, got 0`; `g has 3 elements, x has 4`
   */
  step(x: Float32Array, g: Float32Array, m: Float32Array, v: Float32Array, t: number, o?: AdamWOptions): { x: Float32Array<ArrayBuffer>; m: Float32Array<ArrayBuffer>; v: Float32Array<ArrayBuffer> };
  /** The backend that runs the kernels: "webgl2" in a browser, "cpu" in Node (lib/kernels/gpujs). */
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
  const ctx = createKernelContext((mode ?? "gpu") as GpuMode);
  const k = createAdamWKernels(ctx); // one thread updates four elements (lib/kernels/gpujs)
  return {
    step(x, g, m, v, t, o = {}) {
      const { lr, betas: [b1, b2], eps, weightDecay } = adamHyper(o);
      if (!Number.isSafeInteger(t) || t < 1) throw new RangeError(`t must be an integer >= 1, got ${t}`);
      for (const [name, a] of [["g", g], ["m", m], ["v", v]] as const) if (a.length !== x.length) throw new RangeError(`${name} has ${a.length} elements, x has ${x.length}`);
      const n = x.length;
      if (n === 0) return { x: new Float32Array(0), m: new Float32Array(0), v: new Float32Array(0) };
      const decay = Math.fround(1 - lr * weightDecay), stepSize = lr / (1 - b1 ** t), bc2 = Math.sqrt(1 - b2 ** t);
      const c1 = 1 - b1, c2 = 1 - b2; // on the host in float64: 1 − β2 computed in float32 is off by 1.3e-5 relative for β2 = 0.999
      const nx = k.theta.run([x, g, m, v, decay, c1, b2, c2, stepSize, bc2, eps], n);
      const nm = k.m.run([m, g, c1], n);
      const nv = k.v.run([v, g, b2, c2], n);
      return { x: nx, m: nm, v: nv };
    },
    mode: ctx.backend,
    destroy: () => ctx.destroy(),
  };
}
