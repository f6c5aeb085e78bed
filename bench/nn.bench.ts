/**
 * lib/nn benchmarks: matmul throughput of the gpu.js kernel per backend
 * (gpu.js's cpu backend in Node: lib/kernels/gpujs) beside plain TypeScript loops, and training steps per second
 * of the course model (fp32, bf16 simulated, with the gpu.js matmul, and with
 * activation checkpointing). Prints figures; asserts nothing.
 */
import { matmul, mulberry32, corpus, createModel, DEFAULT_MODEL, sampleBatch, forward, backward, AdamW, cpuOps, FP32, type MatmulFn, type Ops } from "../lib/nn/index.js";
import { createGpuMatmul } from "../lib/nn/createGpuMatmul.js";
import { plainMatmul } from "./plainMatmul.js";
import { checkpointedStep, sqrtSegments } from "../lib/accumulation-checkpointing/index.js";

function timeIt(fn: () => void, minMs: number, maxReps: number): number {
  fn(); // warm-up (and kernel compilation)
  let reps = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < minMs && reps < maxReps) { fn(); reps++; }
  return (performance.now() - t0) / reps;
}

export default async function bench(): Promise<void> {
  const kernel = createGpuMatmul();
  try {
    const rows: Record<string, string | number>[] = [];
    for (const n of [64, 128, 256]) {
      const rng = mulberry32(n);
      const a = Float32Array.from({ length: n * n }, () => rng() - 0.5), b = Float32Array.from({ length: n * n }, () => rng() - 0.5);
      const flops = 2 * n * n * n;
      const cases: [string, () => unknown][] = [
        ["plain TS loop (float64 sum)", () => plainMatmul(a, b, n, n, n)],
        ["lib/nn matmul (fp32 accumulate)", () => matmul(a, b, { M: n, K: n, N: n })],
        ["lib/nn matmul (fp16 accumulate)", () => matmul(a, b, { M: n, K: n, N: n }, "fp16")],
        [`gpu.js ${kernel.mode}`, () => kernel.matmul(a, b, { M: n, K: n, N: n }, "fp32")],
      ];
      for (const [name, fn] of cases) {
        const ms = timeIt(fn, 400, 50);
        rows.push({ "n×n·n×n": n, implementation: name, "ms per matmul": +ms.toFixed(2), "GFLOP/s": +(flops / ms / 1e6).toFixed(3) });
      }
    }
    console.log("matmul throughput (2·n³ FLOPs per product)");
    console.table(rows);

    const { vocab, tokens } = corpus();
    const cfg = { ...DEFAULT_MODEL, vocabSize: vocab.size };
    const B = 8, L = 16;
    const train: Record<string, string | number>[] = [];
    const variants: [string, Ops | null, boolean][] = [
      ["fp32, CPU matmul", cpuOps(), false],
      ["bf16 simulated (fp32 accumulate)", cpuOps({ compute: "bf16", accumulate: "fp32" }), false],
      ["fp16 simulated (fp16 accumulate)", cpuOps({ compute: "fp16", accumulate: "fp16" }), false],
      [`fp32, gpu.js ${kernel.mode} matmul`, { precision: FP32, matmul: kernel.matmul as MatmulFn }, false],
      ["fp32, CPU, √n checkpointing", cpuOps(), true],
    ];
    for (const [name, ops, ckpt] of variants) {
      const model = createModel(cfg), opt = new AdamW(model.params, { lr: 1e-2 }), rng = mulberry32(0);
      const o = ops ?? cpuOps();
      const step = () => {
        const batch = sampleBatch(tokens, { batchSize: B, seqLen: L, contextLength: cfg.contextLength }, rng);
        if (ckpt) checkpointedStep(model, batch, { segments: sqrtSegments(model.layers.length), ops: o });
        else { opt.zeroGrad(); const f = forward(model, batch, o); backward(model, f, 1 / f.tokenCount, o); }
        opt.step();
      };
      const ms = timeIt(step, 1500, 300);
      train.push({ variant: name, "ms per step": +ms.toFixed(2), "steps/s": +(1000 / ms).toFixed(1), "tokens/s": Math.round((B * L * 1000) / ms) });
    }
    console.log(`training steps of the course model (${cfg.numBlocks} blocks, width ${cfg.width}, ${B}×${L} tokens per step, AdamW)`);
    console.table(train);
  } finally {
    kernel.destroy();
  }
}
