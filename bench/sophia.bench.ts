/**
 * Sophia benchmarks: optimizer steps per second on 1M parameters (one Float32Array)
 * for lib/nn's AdamW, Lion and SophiaG, as a CPU loop and as the gpu.js kernels of
 * lib/sophia/createOptimizerKernel.ts on gpu.js's cpu backend (the kernel run as
 * JavaScript: Node has no GL here, and the webasm backend cannot read the four-float
 * texels of lib/kernels/gpujs), and SophiaG's curvature
 * update (update_hessian), which runs once every k steps. A kernel step includes
 * copying the arrays in and out (what the page's check does). Prints figures; asserts nothing.
 * The optimizer step is a small part of a training step: the forward and backward
 * passes dominate, and SophiaG's real extra cost is the GNB pass every k steps.
 */
import { AdamW, mulberry32, type Param } from "../lib/nn/index.js";
import { Lion, SophiaG } from "../lib/sophia/index.js";
import { createOptimizerKernel, type KernelOptimizer, type KernelState } from "../lib/sophia/createOptimizerKernel.js";
import { progress } from "./progress.js";

const N = 1 << 20;

function param(): Param {
  const rng = mulberry32(1), data = new Float32Array(N), grad = new Float32Array(N);
  for (let i = 0; i < N; i++) { data[i] = rng() - 0.5; grad[i] = (rng() - 0.5) * 1e-2; }
  return { name: "w", shape: [N], data, grad };
}

function time(run: () => void, minMs = 1500): { steps: number; msPerStep: number } {
  run(); // warm-up
  let steps = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < minMs) { run(); steps++; }
  return { steps, msPerStep: (performance.now() - t0) / steps };
}

export default async function bench(): Promise<void> {
  const rows: [string, () => void][] = [];
  { const p = param(), o = new AdamW([p], { lr: 1e-3 }); rows.push(["AdamW step (lib/nn, float32 rounding per op)", () => o.step()]); }
  { const p = param(), o = new Lion([p], { lr: 1e-4 }); rows.push(["Lion step", () => o.step()]); }
  { const p = param(), o = new SophiaG([p], { lr: 1e-4 }); o.updateHessian(); rows.push(["SophiaG step (bs 5120)", () => o.step(5120)]); }
  { const p = param(), o = new SophiaG([p], { lr: 1e-4 }); rows.push(["SophiaG update_hessian (every k steps)", () => o.updateHessian()]); }
  console.log(`${N} parameters (2^20), one Float32Array, CPU loop`);
  const print = (name: string, r: { steps: number; msPerStep: number }) =>
    console.log(`${name.padEnd(48)} ${r.msPerStep.toFixed(2).padStart(8)} ms/step  ${(1000 / r.msPerStep).toFixed(1).padStart(7)} steps/s  (${r.steps} steps)`);
  for (const [name, run] of rows) { progress(name); print(name, time(run)); }
  console.log(`${N} parameters, gpu.js kernels (one launch per new state: SophiaG 2, Lion 2, AdamW 3)`);
  const cfg = { adamw: { lr: 1e-3, t: 1 }, lion: { lr: 1e-4 }, sophiag: { lr: 1e-4, bs: 5120 } };
  for (const mode of ["cpu"]) { // gpu.js's webasm backend cannot read four-float texels (lib/kernels/gpujs)
    for (const opt of ["adamw", "lion", "sophiag"] as KernelOptimizer[]) {
      const p = param(), k = createOptimizerKernel(opt, mode);
      try {
        const st: KernelState = { theta: p.data, grad: p.grad, m: new Float32Array(N), s: Float32Array.from(p.grad, (g) => g * g) };
        progress(`${opt} kernel on ${mode}`);
        const r = time(() => { const o = k.step(st, cfg[opt]); st.theta = o.theta; st.m = o.m; if (o.s) st.s = o.s; });
        print(`${opt} kernel, gpu.js ${k.backend}`, r);
      } finally { k.destroy(); }
    }
  }
}
