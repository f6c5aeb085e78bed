/**
 * AdamW's elementwise update as three kernels of a {@link KernelContext}: new m, new v and
 * new θ (which recomputes m' and v' from the same inputs rather than reading them back).
 * Shared by chapter 9's offloaded Adam and chapter 11's optimizer comparison.
 */
import type { KernelContext, Vec4Kernel } from "./createKernelContext.js";

/** m' = m + c1·(g − m), one element (PyTorch's exp_avg.lerp_). */
function adamwM(m: number, g: number, c1: number): number {
  return m + c1 * (g - m);
}

/** v' = β2·v + c2·g², one element. */
function adamwV(v: number, g: number, b2: number, c2: number): number {
  return v * b2 + c2 * (g * g);
}

/** θ' = θ·decay − s·m'/(√v'/c₂ + ε), one element, m' and v' recomputed. */
function adamwTheta(th: number, g: number, m: number, v: number, decay: number, c1: number, b2: number, c2: number, stepSize: number, bc2Sqrt: number, eps: number): number {
  const mi = m + c1 * (g - m);
  const vi = v * b2 + c2 * (g * g);
  return th * decay - stepSize * (mi / (Math.sqrt(vi) / bc2Sqrt + eps));
}

type This = { thread: { x: number } };

/**
 * Compiles (once per context) AdamW's three kernels, one thread per four elements.
 *
 * m' = m + c1·(g − m), v' = β2·v + c2·g², θ' = θ·decay − s·m'/(√v'/c₂ + ε), with
 * c1 = 1 − β1, c2 = 1 − β2, decay = 1 − lr·λ, s = lr/(1 − β1ᵗ), c₂ = √(1 − β2ᵗ) computed
 * on the host in float64 (1 − β2 computed in float32 inside a kernel is 1.3·10⁻⁵ off for β2 = 0.999).
 * Arguments, in order: m: (m, g, c1); v: (v, g, b2, c2); theta: (θ, g, m, v, decay, c1, b2, c2, s, c₂, ε).
 * @param ctx the kernel context
 * @returns `{m, v, theta}`, each run as `k.run([...args], n)`
 * @example const { m } = createAdamWKernels(createKernelContext("cpu")); m.run([Float32Array.of(0), Float32Array.of(1), 0.1], 1) // Float32Array [0.1]
 * @see Loshchilov & Hutter 2019, Algorithm 2; PyTorch torch.optim.AdamW (single-tensor path: exp_avg.lerp_, the denominator sqrt(v)/sqrt(bias_correction2) + eps)
 */
export function createAdamWKernels(ctx: KernelContext): { m: Vec4Kernel; v: Vec4Kernel; theta: Vec4Kernel } {
  const m = ctx.kernel("adamw-m", () => ({
    body: function (this: This, m: number[][], g: number[][], c1: number) {
      const mi = m[this.thread.x], gi = g[this.thread.x];
      return [adamwM(mi[0], gi[0], c1), adamwM(mi[1], gi[1], c1), adamwM(mi[2], gi[2], c1), adamwM(mi[3], gi[3], c1)];
    } as never,
    argumentTypes: { m: "Array1D(4)", g: "Array1D(4)", c1: "Float" },
    functions: [adamwM],
  }));
  const v = ctx.kernel("adamw-v", () => ({
    body: function (this: This, v: number[][], g: number[][], b2: number, c2: number) {
      const vi = v[this.thread.x], gi = g[this.thread.x];
      return [adamwV(vi[0], gi[0], b2, c2), adamwV(vi[1], gi[1], b2, c2), adamwV(vi[2], gi[2], b2, c2), adamwV(vi[3], gi[3], b2, c2)];
    } as never,
    argumentTypes: { v: "Array1D(4)", g: "Array1D(4)", b2: "Float", c2: "Float" },
    functions: [adamwV],
  }));
  const theta = ctx.kernel("adamw-theta", () => ({
    body: function (this: This, th: number[][], g: number[][], m: number[][], v: number[][], decay: number, c1: number, b2: number, c2: number, stepSize: number, bc2Sqrt: number, eps: number) {
      const t = th[this.thread.x], gi = g[this.thread.x], mi = m[this.thread.x], vi = v[this.thread.x];
      return [adamwTheta(t[0], gi[0], mi[0], vi[0], decay, c1, b2, c2, stepSize, bc2Sqrt, eps), adamwTheta(t[1], gi[1], mi[1], vi[1], decay, c1, b2, c2, stepSize, bc2Sqrt, eps),
        adamwTheta(t[2], gi[2], mi[2], vi[2], decay, c1, b2, c2, stepSize, bc2Sqrt, eps), adamwTheta(t[3], gi[3], mi[3], vi[3], decay, c1, b2, c2, stepSize, bc2Sqrt, eps)];
    } as never,
    argumentTypes: { th: "Array1D(4)", g: "Array1D(4)", m: "Array1D(4)", v: "Array1D(4)", decay: "Float", c1: "Float", b2: "Float", c2: "Float", stepSize: "Float", bc2Sqrt: "Float", eps: "Float" },
    functions: [adamwTheta],
  }));
  return { m, v, theta };
}
