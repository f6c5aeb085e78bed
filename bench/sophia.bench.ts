/**
 * Sophia benchmarks: optimizer steps per second on 1M parameters (one Float32Array,
 * CPU loop) for lib/nn's AdamW, Lion and SophiaG, and SophiaG's curvature update
 * (update_hessian), which runs once every k steps. Prints figures; asserts nothing.
 * The optimizer step is a small part of a training step: the forward and backward
 * passes dominate, and SophiaG's real extra cost is the GNB pass every k steps.
 */
import { AdamW, mulberry32, type Param } from "../lib/nn/index.js";
import { Lion, SophiaG } from "../lib/sophia/index.js";

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
  for (const [name, run] of rows) {
    const r = time(run);
    console.log(`${name.padEnd(48)} ${r.msPerStep.toFixed(2).padStart(8)} ms/step  ${(1000 / r.msPerStep).toFixed(1).padStart(7)} steps/s  (${r.steps} steps)`);
  }
}
