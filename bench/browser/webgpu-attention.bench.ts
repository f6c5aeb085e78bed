/**
 * Attention in the browser: the WebGPU kernels (FlashAttention-2 forward with workgroup-memory
 * tiles, standard attention with an N×N buffer) beside the gpu.js kernels (WebGL2) and the
 * float64 reference in plain JavaScript, at several N, in one page. One warm-up run per kernel
 * and head dimension (which compiles), then one timed run per N (a run at N = 2048 takes
 * seconds on SwiftShader). Standard attention past the device's binding limit is reported, not run.
 */
import { createWebGpuAttention } from "../../lib/kernels/webgpu/createWebGpuAttention.js";
import { createGpu, createFlashAttentionKernel } from "../../lib/flash-attention/flashAttentionKernel.js";
import { createStandardAttentionKernels } from "../../lib/flash-attention/standardAttentionKernels.js";
import { referenceAttention } from "../../lib/flash-attention/referenceAttention.js";
import { randomTensor } from "../../lib/flash-attention/randomTensor.js";
import { maxAbsDiff } from "../../lib/flash-attention/maxAbsDiff.js";
import { printTable } from "./measure.js";

const timeOnce = async (f: () => unknown): Promise<[number, unknown]> => { const t0 = performance.now(); const r = await f(); return [performance.now() - t0, r]; };

export default async function bench(o: { quick?: boolean } = {}): Promise<void> {
  const gpu = await createWebGpuAttention();
  if (!gpu) { console.log("\nWebGPU attention: navigator.gpu is not available in this browser (skipped)"); return; }
  const d = 64, Ns = o.quick ? [256, 512] : [256, 512, 1024, 2048];
  const t = gpu.tiles(d);
  const rows: Record<string, string | number>[] = [];
  const gl = createGpu("webgl2");
  try {
    const warm = { B: 1, H: 1, Nq: 128, Nk: 128, d };
    const w = [randomTensor(128 * d, 1), randomTensor(128 * d, 2), randomTensor(128 * d, 3)] as const;
    const [compileFlash] = await timeOnce(() => gpu.flash(...w, warm));
    const [compileStd] = await timeOnce(() => gpu.standard(...w, warm));
    for (const N of Ns) {
      const shape = { B: 1, H: 1, Nq: N, Nk: N, d };
      const q = randomTensor(N * d, N, 2), k = randomTensor(N * d, N + 1, 2), v = randomTensor(N * d, N + 2);
      const [msRef, ref] = N <= 1024 ? await timeOnce(() => referenceAttention(q, k, v, shape)) : [NaN, null];
      const flash = await gpu.flash(q, k, v, shape);
      const std = await gpu.standard(q, k, v, shape);
      let msGl = NaN, msGlStd = NaN;
      if (N <= 512) {
        const fk = createFlashAttentionKernel(gl, shape), sk = createStandardAttentionKernels(gl, shape);
        try {
          fk.run(q, k, v); sk.run(q, k, v);
          [msGl] = await timeOnce(() => fk.run(q, k, v));
          [msGlStd] = await timeOnce(() => sk.run(q, k, v));
        } finally { fk.destroy(); sk.destroy(); }
      }
      const against = ref ? (ref as { O: Float32Array }).O : std.O;
      rows.push({ N, "WebGPU flash ms": flash.ms, "WebGPU standard ms": std.ms, "standard / flash": std.ms / flash.ms, "gpu.js flash ms": msGl, "gpu.js standard ms": msGlStd, "plain JS (float64) ms": msRef,
        [`max |ΔO| flash vs ${ref ? "float64" : "standard"}`]: maxAbsDiff(flash.O, against), "S buffer MiB": (4 * N * N) / 2 ** 20 });
    }
    printTable(`attention forward, B = H = 1, d = ${d}, one run each (ms, upload to readback); WebGPU on ${gpu.adapter}: tiles B_r = ${t.Br}, B_c = ${t.Bc} in ${gpu.limits.maxComputeWorkgroupStorageSize} bytes of workgroup memory (${4 * t.sharedElements} used); first runs, compiling: flash ${compileFlash.toFixed(0)} ms, standard ${compileStd.toFixed(0)} ms; not run: gpu.js past N = 512, the float64 reference past N = 1024 (minutes each on this device)`, rows);
    if (!o.quick) {
      let N = 1024;
      while (gpu.standardLimit({ B: 1, H: 1, Nq: N, Nk: N, d: 16 }) === null) N += 1024;
      const shape = { B: 1, H: 1, Nq: N, Nk: N, d: 16 };
      const q = randomTensor(N * 16, 5, 2), k = randomTensor(N * 16, 6, 2), v = randomTensor(N * 16, 7);
      await gpu.flash(...w.map((x) => x.subarray(0, 128 * 16)) as [Float32Array, Float32Array, Float32Array], { ...warm, d: 16 });
      const r = await gpu.flash(q, k, v, shape);
      printTable(`past standard attention's limit (B = H = 1, d = 16)`, [{ N, "WebGPU flash ms": r.ms, "output finite": String(r.O.every(Number.isFinite)), standard: `cannot run: ${gpu.standardLimit(shape)}` }]);
    }
  } finally {
    gl.destroy();
    gpu.destroy();
  }
}
