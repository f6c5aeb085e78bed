/**
 * The course's gpu.js kernels in the browser (WebGL2; SwiftShader on the course's machine),
 * beside tfjs-webgl for the matmul and a plain JavaScript loop for every kernel, on the
 * same inputs in one page: median milliseconds per call, taken round-robin (inputs uploaded
 * and results read back every call, as the chapters use them), the ratios, and the agreement
 * with the CPU (the matmul: with a float64 loop; the others: with the lib's CPU reference).
 */
import * as tf from "@tensorflow/tfjs-core";
import "@tensorflow/tfjs-backend-webgl";
import { createGpuMatmul } from "../../lib/nn/createGpuMatmul.js";
import { createQuantizer } from "../../lib/precision/quantize.js";
import { castArray } from "../../lib/precision/fastRound.js";
import { createGpuAdam } from "../../lib/offload/createGpuAdam.js";
import { adamLoop } from "../../lib/offload/adamLoop.js";
import { createOptimizerKernel } from "../../lib/sophia/createOptimizerKernel.js";
import { sophiagStep } from "../../lib/sophia/sophiag.js";
import { lionStep } from "../../lib/sophia/lion.js";
import { createReduceKernel } from "../../lib/collectives/createReduceKernel.js";
import { addChunk } from "../../lib/collectives/addChunk.js";
import { createGpu, createFlashAttentionKernel } from "../../lib/flash-attention/flashAttentionKernel.js";
import { createStandardAttentionKernels } from "../../lib/flash-attention/standardAttentionKernels.js";
import { referenceAttention } from "../../lib/flash-attention/referenceAttention.js";
import { randomTensor } from "../../lib/flash-attention/randomTensor.js";
import { maxAbsDiff } from "../../lib/flash-attention/maxAbsDiff.js";
import { medianMs, printTable, roundRobinMs } from "./measure.js";
import { plainMatmul } from "../plainMatmul.js";

async function matmulTable(sizes: number[]): Promise<void> {
  await tf.setBackend("webgl");
  await tf.ready();
  const course = createGpuMatmul("webgl2");
  const rows: Record<string, string | number>[] = [];
  try {
    for (const n of sizes) {
      const a = randomTensor(n * n, n, 0.5), b = randomTensor(n * n, n + 1, 0.5);
      const ref = plainMatmul(a, b, n, n, n); // float64 sums, each rounded once to float32
      let ours: ArrayLike<number> = [], theirs: ArrayLike<number> = [];
      const { course: msCourse, tfjs: msTf, plain: msPlain } = await roundRobinMs({
        course: () => { ours = course.matmul(a, b, { M: n, K: n, N: n }, "fp32"); },
        tfjs: () => {
          const x = tf.tensor2d(a, [n, n]), y = tf.tensor2d(b, [n, n]), c = tf.matMul(x, y);
          theirs = c.dataSync() as Float32Array;
          tf.dispose([x, y, c]);
        },
        plain: () => plainMatmul(a, b, n, n, n),
      });
      rows.push({ "n (n×n · n×n)": n, [`course gpu.js ${course.mode} ms`]: msCourse, "tfjs-webgl ms": msTf, "plain JS ms": msPlain,
        "course / tfjs": msCourse / msTf, "course / plain": msCourse / msPlain, "max |Δ| course": maxAbsDiff(ours, ref), "max |Δ| tfjs": maxAbsDiff(theirs, ref) });
    }
  } finally {
    course.destroy();
  }
  printTable("float32 matmul, inputs uploaded and C read back every call (median ms)", rows);
}

async function elementwiseTable(n: number): Promise<void> {
  const x = randomTensor(n, 1), g = randomTensor(n, 2, 0.1), m = randomTensor(n, 3, 0.01), v = randomTensor(n, 4, 0.01).map(Math.abs);
  const rows: Record<string, string | number>[] = [];
  const row = async (kernel: string, gpuFn: () => ArrayLike<number>, plainFn: () => ArrayLike<number>, backend: () => string) => {
    let k: ArrayLike<number> = [], p: ArrayLike<number> = [];
    const { gpu: msGpu, plain: msPlain } = await roundRobinMs({ gpu: () => { k = gpuFn(); }, plain: () => { p = plainFn(); } });
    rows.push({ kernel, backend: backend(), "gpu.js ms": msGpu, "plain JS ms": msPlain, "gpu.js / plain": msGpu / msPlain, "max |Δ|": maxAbsDiff(k, Float32Array.from(p)) });
  };
  const q = createQuantizer("bf16", { mode: "webgl2" });
  await row("round to bf16", () => q.run(x), () => castArray("bf16", x), () => q.backend);
  q.destroy();
  const adam = createGpuAdam("webgl2");
  await row("AdamW step (θ, m, v)", () => adam.step(x, g, m, v, 3).x, () => { const xx = x.slice(), mm = m.slice(), vv = v.slice(); adamLoop(xx, g, mm, vv, 3); return xx; }, () => adam.mode);
  adam.destroy();
  const cfg = { lr: 1e-3, betas: [0.9, 0.99] as [number, number], rho: 0.04, weightDecay: 0.1, bs: 480 };
  const sophia = createOptimizerKernel("sophiag", "webgl2");
  await row("SophiaG step (θ, m)", () => sophia.step({ theta: x, grad: g, m, s: v }, cfg).theta, () => sophiagStep(x, g, m, v, cfg).theta, () => sophia.backend);
  sophia.destroy();
  const lion = createOptimizerKernel("lion", "webgl2");
  const lcfg = { lr: 1e-4, betas: [0.9, 0.99] as [number, number], weightDecay: 0.1 };
  await row("Lion step (θ, m)", () => lion.step({ theta: x, grad: g, m }, lcfg).theta, () => lionStep(x, g, m, lcfg).theta, () => lion.backend);
  lion.destroy();
  const red = createReduceKernel("webgl2");
  await row("reduce (local + received)", () => red.reduce(x, g), () => addChunk(x, g), () => red.backend);
  red.destroy();
  printTable(`elementwise kernels on n = ${n.toLocaleString("en")} float32 values, inputs uploaded and outputs read back every call (median ms)`, rows);
}

async function attentionTable(N: number, d: number): Promise<void> {
  const shape = { B: 1, H: 1, Nq: N, Nk: N, d };
  const q = randomTensor(N * d, 1, 2), k = randomTensor(N * d, 2, 2), v = randomTensor(N * d, 3);
  const ref = referenceAttention(q, k, v, shape);
  const gpu = createGpu("webgl2");
  const rows: Record<string, string | number>[] = [];
  try {
    const msPlain = await medianMs(() => referenceAttention(q, k, v, shape));
    for (const [name, make] of [["gpu.js standard (4 launches)", () => createStandardAttentionKernels(gpu, shape)], ["gpu.js flash (1 launch)", () => createFlashAttentionKernel(gpu, shape)]] as const) {
      const kern = make();
      let O: ArrayLike<number> = [];
      try {
        const ms = await medianMs(() => { O = kern.run(q, k, v).O; }, 3);
        rows.push({ implementation: name, ms, "plain JS ms": msPlain, "/ plain": ms / msPlain, "max |Δ| vs float64": maxAbsDiff(O, ref.O) });
      } finally {
        kern.destroy();
      }
    }
  } finally {
    gpu.destroy();
  }
  printTable(`attention forward, B = H = 1, N = ${N}, d = ${d} (median ms; plain JS: lib's float64 referenceAttention)`, rows);
}

export default async function bench(o: { quick?: boolean } = {}): Promise<void> {
  await matmulTable(o.quick ? [128, 256] : [128, 256, 512]);
  await elementwiseTable(o.quick ? 1 << 16 : 1 << 20);
  await attentionTable(256, 64);
}
