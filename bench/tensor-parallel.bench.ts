/**
 * Tensor-parallel benchmarks: one MLP block (h = 128, H = 512, N = 128 tokens)
 * forward + backward, unsharded (lib/nn's residual MLP) beside
 * lib/tensor-parallel's TensorParallelMlp on T = 1, 2, 4 simulated ranks, with
 * the CPU matmul and with the gpu.js matmul kernel (whatever backend gpu.js
 * picks in Node). All ranks run on one thread, so T ranks cost about the same
 * arithmetic as one device plus the simulated collectives: the figures show the
 * simulation's overhead, not a speed-up. Then the self-attention layer
 * (a = 8 heads, G = 2 KV heads, d = 16, 2 × 64 tokens) forward + backward,
 * unsharded beside T = 1, 2, 4 (CPU matmul: the attention takes no kernel).
 * Prints figures; asserts nothing.
 */
import { matmul, mulberry32, gaussian, residualMlp, FP32, type MatmulFn } from "../lib/nn/index.js";
import {
  TpComm, TensorParallelMlp, tpCommPerLayer, attentionForward, attentionBackward, tensorParallelAttentionForward, tensorParallelAttentionBackward,
} from "../lib/tensor-parallel/index.js";
import { createGpuMatmul } from "../lib/nn/createGpuMatmul.js";

function timeIt(fn: () => void, minMs = 1000, maxRuns = 30): number {
  fn(); // warm-up
  let runs = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < minMs && runs < maxRuns) { fn(); runs++; }
  return (performance.now() - t0) / runs;
}

export default async function bench(): Promise<void> {
  const h = 128, H = 512, N = 128, rng = mulberry32(1);
  const ref = residualMlp("m", h, H, rng);
  const [W1, b1, W2, b2] = ref.params;
  const x = Float32Array.from({ length: N * h }, () => gaussian(rng)), dy = Float32Array.from({ length: N * h }, () => gaussian(rng));
  const w = { W1: W1.data, b1: b1.data, W2: W2.data, b2: b2.data };
  const gpu = createGpuMatmul();
  const rows: Record<string, string | number>[] = [];
  try {
    for (const [name, mm] of [["cpu matmul", matmul], ["gpu.js matmul", gpu.matmul]] as [string, MatmulFn][]) {
      const ops = { precision: FP32, matmul: mm };
      const one = timeIt(() => { const f = ref.forward({ data: x, rows: N, cols: h }, ops); ref.backward(f.saved, { data: dy, rows: N, cols: h }, ops); });
      rows.push({ matmul: name === "gpu.js matmul" ? `gpu.js (${gpu.mode})` : name, layer: "unsharded (lib/nn)", T: 1, "ms fwd+bwd": +one.toFixed(2), "bytes sent (all ranks)": 0 });
      for (const T of [1, 2, 4]) {
        const comm = new TpComm(T, undefined, 4);
        const mlp = new TensorParallelMlp(comm, w, h, H, { matmul: mm });
        const ms = timeIt(() => { comm.clear(); mlp.forward(Array.from({ length: T }, () => x), N); mlp.backward(Array.from({ length: T }, () => dy)); });
        const logged = comm.log.reduce((s, l) => s + l.bytes, 0);
        const closed = tpCommPerLayer({ tokens: N, hiddenSize: h, T, bytesPerElement: 4, regions: 1 }).reduce((s, r) => s + r.bytesTotal, 0);
        rows.push({ matmul: name === "gpu.js matmul" ? `gpu.js (${gpu.mode})` : name, layer: "TensorParallelMlp", T, "ms fwd+bwd": +ms.toFixed(2), "bytes sent (all ranks)": logged, "closed form": closed });
      }
    }
  } finally {
    gpu.destroy();
  }
  console.table(rows);
  const s = { batch: 2, seqLen: 64, hiddenSize: 128, numHeads: 8, numKvHeads: 2, headDim: 16 };
  const rand = (n: number) => Float32Array.from({ length: n }, () => gaussian(rng));
  const aw = { Wq: rand(128 * 128), Wk: rand(128 * 32), Wv: rand(128 * 32), Wo: rand(128 * 128) };
  const ax = rand(128 * 128), ady = rand(128 * 128);
  const att: Record<string, string | number>[] = [];
  att.push({ layer: "attention, unsharded", T: 1, "ms fwd+bwd": +timeIt(() => { attentionForward(ax, aw, s); attentionBackward(ax, aw, s, ady); }, 1000, 10).toFixed(2), "bytes sent (all ranks)": 0 });
  for (const T of [1, 2, 4]) {
    const comm = new TpComm(T, undefined, 4);
    const ms = timeIt(() => { comm.clear(); tensorParallelAttentionForward(comm, ax, aw, s); tensorParallelAttentionBackward(comm, ax, aw, s, ady); }, 1000, 10);
    att.push({ layer: "attention, tensor parallel", T, "ms fwd+bwd": +ms.toFixed(2), "bytes sent (all ranks)": comm.log.reduce((t, l) => t + l.bytes, 0) });
  }
  console.table(att);
}
