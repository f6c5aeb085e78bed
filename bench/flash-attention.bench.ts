/**
 * Standard attention (S, P materialised) versus the fused FlashAttention
 * kernel, both gpu.js (cpu backend in Node, through lib/kernels/gpujs), for N = 256 … 4096 and d = 64,
 * beside the float64-inside CPU reference: time, bytes of intermediates, and
 * the largest error against the reference. Run: npm run bench -- flash-attention
 */
import { makeCase } from "../lib/flash-attention/arbitraries.js";
import { createFlashAttentionKernel, createGpu } from "../lib/flash-attention/flashAttentionKernel.js";
import { createStandardAttentionKernels } from "../lib/flash-attention/standardAttentionKernels.js";
import { referenceAttention } from "../lib/flash-attention/referenceAttention.js";
import { maxAbsDiff } from "../lib/flash-attention/maxAbsDiff.js";

const D = 64;
const SIZES = [256, 512, 1024, 2048, 4096];
/** Skip a combination whose predicted time (4× the previous N, attention is quadratic) exceeds this. */
const BUDGET_MS = 60_000;

type Row = { N: number; impl: string; ms: string; reps: number; intermediateMiB: string; maxAbsErr: string; note: string };

function timeIt(run: () => void, reps: number): number {
  const t: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    run();
    t.push(performance.now() - t0);
  }
  return t.sort((a, b) => a - b)[Math.floor(t.length / 2)];
}

export default async function bench(): Promise<void> {
  const gpu = createGpu(); // gpu.js cpu backend in Node (lib/kernels/gpujs)
  const rows: Row[] = [];
  const last: Record<string, number> = {};
  const mib = (b: number) => (b / 2 ** 20).toFixed(2);
  try {
    for (const N of SIZES) {
      const shape = { B: 1, H: 1, Nq: N, Nk: N, d: D };
      const c = makeCase(shape, N, {});
      const reps = N <= 1024 ? 3 : 1;
      const skip = (impl: string) => {
        const predicted = (last[impl] ?? 0) * 4 * reps;
        if (predicted <= BUDGET_MS) return false;
        rows.push({ N, impl, ms: "skipped", reps: 0, intermediateMiB: "", maxAbsErr: "", note: `predicted ${(predicted / 1000).toFixed(0)} s (4× N=${N / 2}) > ${BUDGET_MS / 1000} s budget` });
        last[impl] = Infinity;
        return true;
      };
      // Progress on stderr: N = 4096 takes minutes on gpu.js's cpu backend.
      const progress = (impl: string) => process.stderr.write(`  flash-attention: N = ${N}, ${impl} …\n`);
      let ref: ReturnType<typeof referenceAttention> | undefined;
      if (!skip("cpu reference")) {
        progress("cpu reference");
        last["cpu reference"] = timeIt(() => { ref = referenceAttention(c.q, c.k, c.v, shape); }, 1);
        rows.push({ N, impl: "cpu reference", ms: last["cpu reference"].toFixed(0), reps: 1, intermediateMiB: mib(N * N * 8), maxAbsErr: "0 (oracle)", note: "float64 S, overwritten by P (N×N)" });
      }
      if (!skip("standard (gpu.js)")) {
        progress("standard (gpu.js)");
        const sk = createStandardAttentionKernels(gpu, shape);
        let O: Float32Array = new Float32Array(0);
        sk.run(c.q, c.k, c.v); // first run compiles
        last["standard (gpu.js)"] = timeIt(() => { O = sk.run(c.q, c.k, c.v).O; }, reps);
        rows.push({ N, impl: "standard (gpu.js)", ms: last["standard (gpu.js)"].toFixed(0), reps, intermediateMiB: mib(sk.intermediateBytes), maxAbsErr: ref ? maxAbsDiff(O, ref.O).toExponential(1) : "n/a", note: "S, P: N×N float32" });
        sk.destroy();
      }
      if (!skip("flash (gpu.js)")) {
        progress("flash (gpu.js)");
        const fk = createFlashAttentionKernel(gpu, shape);
        let O: Float32Array = new Float32Array(0);
        const first = timeIt(() => { O = fk.run(c.q, c.k, c.v).O; }, 1);
        last["flash (gpu.js)"] = reps > 1 ? timeIt(() => { O = fk.run(c.q, c.k, c.v).O; }, reps) : first;
        rows.push({ N, impl: "flash (gpu.js)", ms: last["flash (gpu.js)"].toFixed(0), reps: reps > 1 ? reps : 1, intermediateMiB: "0", maxAbsErr: ref ? maxAbsDiff(O, ref.O).toExponential(1) : "n/a", note: `no N×N; output ${mib(fk.outputBytes)} MiB${reps > 1 ? "" : ", incl. compile"}` });
        fk.destroy();
      }
    }
  } finally {
    gpu.destroy();
  }
  console.log(`gpu.js ${gpu.backend} backend, B = H = 1, d = ${D}; ms = median of reps (N ≥ 2048: one run); intermediates = bytes held besides Q, K, V, O`);
  console.table(rows);
  console.log("The flash kernel recomputes each score for every group of 4 output columns (gpu.js has no shared memory), so on a CPU backend it does ~d/4× the arithmetic of standard attention; its gain is memory, not time.");
}
