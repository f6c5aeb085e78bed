/**
 * Offload benchmarks: the offload timeline of 1,000 layers (simulations per
 * second, and the simulated step), and the Adam step on 2²⁰ elements per
 * gpu.js backend beside a plain TypeScript loop and lib/nn's AdamW
 * (elements per second). Prints figures; asserts nothing.
 */
import { simulateOffloadStep, adamLoop, normwiseUlps, DEFAULT_OFFLOAD_HARDWARE } from "../lib/offload/index.js";
import { createGpuAdam } from "../lib/offload/createGpuAdam.js";
import { AdamW, mulberry32, gaussian } from "../lib/nn/index.js";
import { progress } from "./progress.js";

function timeIt(fn: () => void, minMs = 1500, maxRuns = 50): { runs: number; msPerRun: number } {
  fn(); // warm-up
  let runs = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < minMs && runs < maxRuns) { fn(); runs++; }
  return { runs, msPerRun: (performance.now() - t0) / runs };
}

export default async function bench(): Promise<void> {
  progress("offload timeline, 1000 layers");
  const placements = [
    ["ZeRO-Offload", { offloadOptimizer: "cpu" as const }],
    ["ZeRO-Offload + DPU", { offloadOptimizer: "cpu" as const, dpu: true }],
    ["ZeRO-3 + offload_param", { stage: 3 as const, offloadOptimizer: "cpu" as const, offloadParam: "cpu" as const }],
    ["ZeRO-Infinity (NVMe)", { stage: 3 as const, offloadOptimizer: "nvme" as const, offloadParam: "nvme" as const }],
  ] as const;
  console.table(placements.map(([name, p]) => {
    const cfg = { numLayers: 1000, hiddenSize: 1024, ...p };
    const r = simulateOffloadStep(cfg);
    const t = timeIt(() => simulateOffloadStep(cfg), 1500, 20);
    return { placement: name, layers: 1000, events: r.events.length, "simulations/s": +(1000 / t.msPerRun).toFixed(2), "ms/simulation": +t.msPerRun.toFixed(1), "simulated step (s)": +r.stepTimeS.toFixed(3), "GPU busy": +r.gpuUtilization.toFixed(3) };
  }));

  const n = 1 << 20, o = { lr: 1e-2, weightDecay: 0.1 };
  const rng = mulberry32(1);
  const x0 = Float32Array.from({ length: n }, () => gaussian(rng)), g = Float32Array.from({ length: n }, () => 1e-3 * gaussian(rng));
  const rows: Record<string, string | number>[] = [];
  progress("Adam: lib/nn AdamW");
  const p = { name: "w", shape: [n], data: x0.slice(), grad: g.slice() };
  const opt = new AdamW([p], o);
  const ref = timeIt(() => opt.step(), 1500, 10);
  rows.push({ implementation: "lib/nn AdamW (each op rounded to float32)", elements: n, "elements/s": +(n / (ref.msPerRun / 1e3)).toExponential(3), "ms/step": +ref.msPerRun.toFixed(1) });
  progress("Adam: TypeScript loop");
  const lx = x0.slice(), lm = new Float32Array(n), lv = new Float32Array(n);
  let t = 0;
  const loop = timeIt(() => adamLoop(lx, g, lm, lv, ++t, o), 1500, 20);
  rows.push({ implementation: "plain TypeScript loop", elements: n, "elements/s": +(n / (loop.msPerRun / 1e3)).toExponential(3), "ms/step": +loop.msPerRun.toFixed(1) });
  for (const mode of ["cpu"]) { // gpu.js's webasm backend cannot read four-float texels (lib/kernels/gpujs)
    progress(`Adam: gpu.js ${mode}`);
    let k;
    try { k = createGpuAdam(mode); } catch (e) { rows.push({ implementation: `gpu.js ${mode}`, elements: n, "elements/s": `unavailable: ${(e as Error).message}`, "ms/step": "" }); continue; }
    try {
      const one = k.step(x0, g, new Float32Array(n), new Float32Array(n), 1, o);
      const want = { name: "w", shape: [n], data: x0.slice(), grad: g.slice() };
      const o1 = new AdamW([want], o); o1.step();
      const kt = timeIt(() => k!.step(x0, g, new Float32Array(n), new Float32Array(n), 1, o), 1500, 10);
      rows.push({ implementation: `gpu.js ${k.mode}`, elements: n, "elements/s": +(n / (kt.msPerRun / 1e3)).toExponential(3), "ms/step": +kt.msPerRun.toFixed(1), "ulps from AdamW (θ)": +normwiseUlps(one.x, want.data, o.lr).toFixed(2) });
    } finally { k.destroy(); }
  }
  console.table(rows);
  console.log(`the timeline's default CPU Adam (a DDR4 bandwidth ceiling): ${DEFAULT_OFFLOAD_HARDWARE.cpuAdamElementsPerS.toExponential(3)} elements/s; DeepSpeed's CPU Adam is multi-threaded C++ with SIMD.`);
}
