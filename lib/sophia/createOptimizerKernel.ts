/**
 * Elementwise optimizer updates as gpu.js kernels: SophiaG (the chapter's
 * subject), and Lion and lib/nn's AdamW (the baselines, for `npm run bench`).
 * One GPU thread per four coordinates (the course's kernel plumbing,
 * lib/kernels/gpujs), float32 throughout.
 *
 * A gpu.js kernel returns one texel (four values) per thread, so each new state
 * is its own launch: SophiaG is two kernels (m', then θ', which recomputes m'
 * from the same inputs rather than reading it back), Lion two, AdamW three.
 *
 * This module imports gpu.js (about 640 kB): pages import it dynamically, in
 * the cell that runs it, and `lib/sophia/index.ts` does not re-export it.
 */
import { validateSophiaG, SOPHIA_EPS, SOPHIAG_DEFAULTS, type SophiaGOptions } from "./sophiag.js";
import { validateLion, type LionOptions } from "./lion.js";
import { createKernelContext, type GpuMode, type Vec4Kernel } from "../kernels/gpujs/createKernelContext.js";
import { createAdamWKernels } from "../kernels/gpujs/createAdamWKernels.js";

/** Which update {@link createOptimizerKernel} compiles. */
export type KernelOptimizer = "sophiag" | "lion" | "adamw";

/** Per-step inputs of a kernel: the weights, the gradient and the optimizer's state (all of n float32). */
export interface KernelState {
  theta: Float32Array;
  grad: Float32Array;
  /** First moment (every optimizer). */
  m: Float32Array;
  /** SophiaG's Hessian EMA h (as `sophia.py` stores it, without bs); AdamW's second moment v. Unused by Lion. */
  s?: Float32Array;
}

/** Hyperparameters for one step. SophiaG: {@link SophiaGOptions} and `bs`; Lion: {@link LionOptions}; AdamW: lib/nn's names and `t`. */
export interface KernelConfig extends SophiaGOptions, LionOptions {
  /** SophiaG: tokens per step (default 5120). */
  bs?: number;
  /** AdamW: ε (default 1e-8). */
  eps?: number;
  /** AdamW: the 1-based step number t (bias correction), default 1. */
  t?: number;
}

/** A compiled update; call `destroy()` when done. */
export interface OptimizerKernel {
  /**
   * One step on new arrays (the inputs are not modified).
   * @returns `{theta, m, s?}`: new Float32Arrays (`s`: AdamW's new v; SophiaG's h is not written by a step)
   */
  step(state: KernelState, config?: KernelConfig): { theta: Float32Array; m: Float32Array; s?: Float32Array };
  /** The gpu.js backend that runs the kernels: "webgl2" in a browser, "cpu" in Node (lib/kernels/gpujs). */
  readonly backend: string;
  /** Frees the kernels and their gpu.js instance (undestroyed kernels leak tens of MB). */
  destroy(): void;
}

/** EMA of one coordinate: β·m + c·g (SophiaG's and Lion's m', AdamW's v' with g²). */
function ema(m: number, g: number, b: number, c: number): number {
  return b * m + c * g;
}

/** SophiaG's θ' for one coordinate, m' recomputed. */
function sophiaTheta(th: number, g: number, m: number, h: number, lr: number, b1: number, c1: number, rho: number, bs: number, decay: number, eps: number): number {
  const mi = b1 * m + c1 * g;
  const ratio = Math.min(Math.abs(mi) / (rho * bs * h + eps), 1.0);
  return th * decay - lr * Math.sign(mi) * ratio;
}

/** Lion's θ' for one coordinate. */
function lionTheta(th: number, g: number, m: number, lr: number, b1: number, c1: number, decay: number): number {
  const c = b1 * m + c1 * g;
  return th * decay - lr * Math.sign(c);
}

type This = { thread: { x: number } };

/**
 * Compiles the elementwise update of one optimizer as gpu.js kernels.
 *
 * SophiaG, per coordinate, as `_single_tensor_sophiag` of Liuhong99/Sophia `sophia.py`
 * (commit 2fc52f24d4bc008658111b0237a70953ada22398), the same placement of ρ, bs and ε as
 * {@link sophiagStep}: m' = β1·m + (1 − β1)·g;
 * θ' = θ·(1 − lr·λ) − lr·sign(m')·min(|m'| / (ρ·bs·h + 1e-15), 1).
 * Lion (Chen et al. 2023, Algorithm 2): c = β1·m + (1 − β1)·g; θ' = θ·(1 − lr·λ) − lr·sign(c);
 * m' = β2·m + (1 − β2)·g. AdamW: lib/nn's `AdamW.step` (torch.optim.AdamW) at step t.
 *
 * The CPU references compute in float64 (SophiaG, Lion) or round every operation to float32
 * (AdamW); the kernels compute in float32 on the device (GLSL division may be off by ~2.5 ulp).
 * 1 − β and 1 − lr·λ are computed in float64 on the host and passed in (computing 1 − 0.999 from
 * a float32 β2 inside the kernel gives 0.00099998713…, a relative error of 1.3e-5 from cancellation).
 * kernels.test.ts bounds the difference per coordinate by 2⁻²⁰ times the size of the terms.
 *
 * @param optimizer "sophiag" | "lion" | "adamw"
 * @param mode gpu.js mode: "gpu" (default: the best backend here: WebGL2 in a browser, cpu in Node), "cpu", "webgl2"…
 * @returns an {@link OptimizerKernel}
 * @throws {RangeError} `optimizer must be one of sophiag, lion, adamw, got sgd`; from `step`: the messages of
 *   {@link validateSophiaG} / {@link validateLion} (`rho must be a finite number > 0, got 0`, `betas[1] must be in [0, 1), got 1`…),
 *   `bs must be a finite number > 0, got 0`, `grad[3] must be finite, got NaN`, `m must have 4 elements, got 3`,
 *   `s must have 4 elements, got 0` (SophiaG's h, AdamW's v), `t must be an integer >= 1, got 0`
 * @example
 * const k = createOptimizerKernel("sophiag", "cpu");
 * k.step({ theta: Float32Array.of(1), grad: Float32Array.of(0.5), m: Float32Array.of(0), s: Float32Array.of(0.5) },
 *   { lr: 0.1, betas: [0.5, 0.9], rho: 1, weightDecay: 0, bs: 1 }); // {theta: [0.95], m: [0.25]} (float32)
 * k.destroy();
 * @see Liuhong99/Sophia sophia.py `_single_tensor_sophiag` (2fc52f24); gpu.js 2.24 README ("createKernel",
 *   "Dynamic Sized Arguments", "Precision", "Destructing"); Chen et al. 2023 (arXiv:2302.06675), Algorithm 2
 */
export function createOptimizerKernel(optimizer: KernelOptimizer, mode = "gpu"): OptimizerKernel {
  if (!["sophiag", "lion", "adamw"].includes(optimizer)) throw new RangeError(`optimizer must be one of sophiag, lion, adamw, got ${optimizer}`);
  const ctx = createKernelContext(mode as GpuMode);
  const kernels: Record<string, Vec4Kernel> = {};
  if (optimizer === "sophiag") {
    kernels.m = ctx.kernel("sophiag-m", () => ({
      body: function (this: This, m: number[][], g: number[][], b1: number, c1: number) {
        const mi = m[this.thread.x], gi = g[this.thread.x];
        return [ema(mi[0], gi[0], b1, c1), ema(mi[1], gi[1], b1, c1), ema(mi[2], gi[2], b1, c1), ema(mi[3], gi[3], b1, c1)];
      } as never,
      argumentTypes: { m: "Array1D(4)", g: "Array1D(4)", b1: "Float", c1: "Float" },
      functions: [ema],
    }));
    kernels.theta = ctx.kernel("sophiag-theta", () => ({
      body: function (this: This, th: number[][], g: number[][], m: number[][], h: number[][], lr: number, b1: number, c1: number, rho: number, bs: number, decay: number, eps: number) {
        const t = th[this.thread.x], gi = g[this.thread.x], mi = m[this.thread.x], hi = h[this.thread.x];
        return [sophiaTheta(t[0], gi[0], mi[0], hi[0], lr, b1, c1, rho, bs, decay, eps), sophiaTheta(t[1], gi[1], mi[1], hi[1], lr, b1, c1, rho, bs, decay, eps),
          sophiaTheta(t[2], gi[2], mi[2], hi[2], lr, b1, c1, rho, bs, decay, eps), sophiaTheta(t[3], gi[3], mi[3], hi[3], lr, b1, c1, rho, bs, decay, eps)];
      } as never,
      argumentTypes: { th: "Array1D(4)", g: "Array1D(4)", m: "Array1D(4)", h: "Array1D(4)", lr: "Float", b1: "Float", c1: "Float", rho: "Float", bs: "Float", decay: "Float", eps: "Float" },
      functions: [sophiaTheta],
    }));
  } else if (optimizer === "lion") {
    kernels.m = ctx.kernel("lion-m", () => ({
      body: function (this: This, m: number[][], g: number[][], b2: number, c2: number) {
        const mi = m[this.thread.x], gi = g[this.thread.x];
        return [ema(mi[0], gi[0], b2, c2), ema(mi[1], gi[1], b2, c2), ema(mi[2], gi[2], b2, c2), ema(mi[3], gi[3], b2, c2)];
      } as never,
      argumentTypes: { m: "Array1D(4)", g: "Array1D(4)", b2: "Float", c2: "Float" },
      functions: [ema],
    }));
    kernels.theta = ctx.kernel("lion-theta", () => ({
      body: function (this: This, th: number[][], g: number[][], m: number[][], lr: number, b1: number, c1: number, decay: number) {
        const t = th[this.thread.x], gi = g[this.thread.x], mi = m[this.thread.x];
        return [lionTheta(t[0], gi[0], mi[0], lr, b1, c1, decay), lionTheta(t[1], gi[1], mi[1], lr, b1, c1, decay),
          lionTheta(t[2], gi[2], mi[2], lr, b1, c1, decay), lionTheta(t[3], gi[3], mi[3], lr, b1, c1, decay)];
      } as never,
      argumentTypes: { th: "Array1D(4)", g: "Array1D(4)", m: "Array1D(4)", lr: "Float", b1: "Float", c1: "Float", decay: "Float" },
      functions: [lionTheta],
    }));
  } else {
    const adamw = createAdamWKernels(ctx);
    kernels.m = adamw.m;
    kernels.s = adamw.v;
    kernels.theta = adamw.theta;
  }
  const run = (k: Vec4Kernel, n: number, ...args: (Float32Array | number)[]): Float32Array => k.run(args, n);
  return {
    step(state, config = {}) {
      const { theta, grad, m, s } = state, n = theta.length;
      for (const [name, a] of [["grad", grad], ["m", m]] as const) if (a.length !== n) throw new RangeError(`${name} must have ${n} elements, got ${a.length}`);
      if (optimizer !== "lion" && s?.length !== n) throw new RangeError(`s must have ${n} elements, got ${s?.length ?? 0}`);
      for (let i = 0; i < n; i++) if (!Number.isFinite(grad[i])) throw new RangeError(`grad[${i}] must be finite, got ${grad[i]}`);
      if (optimizer === "sophiag") {
        const { lr, betas, rho, weightDecay } = validateSophiaG(config);
        const bs = config.bs ?? SOPHIAG_DEFAULTS.bs;
        if (!(Number.isFinite(bs) && bs > 0)) throw new RangeError(`bs must be a finite number > 0, got ${bs}`);
        if (n === 0) return { theta: new Float32Array(0), m: new Float32Array(0) };
        return { theta: run(kernels.theta!, n, theta, grad, m, s!, lr, betas[0], 1 - betas[0], rho, bs, 1 - lr * weightDecay, SOPHIA_EPS), m: run(kernels.m!, n, m, grad, betas[0], 1 - betas[0]) };
      }
      if (optimizer === "lion") {
        const { lr, betas, weightDecay } = validateLion(config);
        if (n === 0) return { theta: new Float32Array(0), m: new Float32Array(0) };
        return { theta: run(kernels.theta!, n, theta, grad, m, lr, betas[0], 1 - betas[0], 1 - lr * weightDecay), m: run(kernels.m!, n, m, grad, betas[1], 1 - betas[1]) };
      }
      const lr = config.lr ?? 1e-3, betas = config.betas ?? [0.9, 0.999], eps = config.eps ?? 1e-8, wd = config.weightDecay ?? 1e-2, t = config.t ?? 1;
      for (const [k, v] of [["lr", lr], ["eps", eps], ["weightDecay", wd]] as const) if (!(Number.isFinite(v) && v >= 0)) throw new RangeError(`${k} must be a finite number >= 0, got ${v}`);
      betas.forEach((b, i) => { if (!(b >= 0 && b < 1)) throw new RangeError(`betas[${i}] must be in [0, 1), got ${b}`); });
      if (!(Number.isInteger(t) && t >= 1)) throw new RangeError(`t must be an integer >= 1, got ${t}`);
      if (n === 0) return { theta: new Float32Array(0), m: new Float32Array(0), s: new Float32Array(0) };
      const decay = Math.fround(1 - lr * wd), stepSize = lr / (1 - betas[0] ** t), bc2Sqrt = Math.sqrt(1 - betas[1] ** t);
      return {
        theta: run(kernels.theta!, n, theta, grad, m, s!, decay, 1 - betas[0], betas[1], 1 - betas[1], stepSize, bc2Sqrt, eps),
        m: run(kernels.m!, n, m, grad, 1 - betas[0]),
        s: run(kernels.s!, n, s!, grad, betas[1], 1 - betas[1]),
      };
    },
    backend: ctx.backend,
    destroy: () => ctx.destroy(),
  };
}
