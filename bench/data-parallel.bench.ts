/**
 * Data-parallel benchmarks: the simulated ring all-reduce of a 1M-float
 * buffer over 64 ranks (runs per second, simulated seconds per run), and the
 * collective's reduction step (add a received chunk into the local one) per
 * gpu.js backend beside a plain loop. Prints figures; asserts nothing.
 */
import { ringAllReduce, parameterServerAllReduce, addChunk, DEFAULT_COST_MODEL } from "../lib/collectives/index.js";
import { createReduceKernel, type KernelMode } from "../lib/collectives/createReduceKernel.js";
import { randomBuffers } from "../lib/collectives/testing.js";
import { LINK_PRESETS } from "../lib/collectives/linkPresets.js";
import { createDdpReducer, mlpInit, regressionData, trainDdpBucketed } from "../lib/data-parallel/index.js";

function timeIt(fn: () => void, minMs = 1500, maxRuns = 50): { runs: number; msPerRun: number } {
  fn(); // warm-up
  let runs = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < minMs && runs < maxRuns) {
    fn();
    runs++;
  }
  return { runs, msPerRun: (performance.now() - t0) / runs };
}

export default async function bench(): Promise<void> {
  const P = 64, n = 1 << 20;
  const buffers = randomBuffers(P, n, 1);
  const sim = ringAllReduce(buffers);
  const ring = timeIt(() => ringAllReduce(buffers), 2000, 5);
  const ps = timeIt(() => parameterServerAllReduce(buffers), 2000, 3);
  console.table([
    { collective: "ring all-reduce", P, elements: n, "runs/s": +(1000 / ring.msPerRun).toFixed(2), "ms/run": +ring.msPerRun.toFixed(0), "simulated time (ms, 5 µs, 25 GB/s)": +(sim.timeS * 1e3).toFixed(3), "events": sim.events.length },
    { collective: "parameter server", P, elements: n, "runs/s": +(1000 / ps.msPerRun).toFixed(2), "ms/run": +ps.msPerRun.toFixed(0), "simulated time (ms, 5 µs, 25 GB/s)": +(parameterServerAllReduce(buffers).timeS * 1e3).toFixed(3), "events": 2 * (P - 1) },
  ]);
  console.log(`cost model: ${JSON.stringify(DEFAULT_COST_MODEL)} (one NVLink-3 link per direction)`);
  console.log(`a ring all-reduce of ${n} float32 over 2 ranks on each named link (simulated ms):`);
  console.table(LINK_PRESETS.map((p) => ({ link: p.id, "GB/s per direction": +(p.bandwidthBytesPerS / 1e9).toFixed(2), "ring (ms)": +(ringAllReduce([buffers[0], buffers[1]], { cost: p }).timeS * 1e3).toFixed(3) })));

  // exercise 5.6's machinery: 20 DDP steps of the MLP with the course's reducer, as the grader runs them
  const { X, Y } = regressionData(48, 3, 2, 9);
  const init = mlpInit({ inputDim: 3, hiddenDim: 8, outputDim: 2 }, 5);
  for (const numRanks of [2, 8]) {
    const t = timeIt(() => trainDdpBucketed(init, X, Y, { lr: 0.2, steps: 20, numRanks, caps: { bucketCapBytes: 64, firstBucketCapBytes: 32 }, createReducer: createDdpReducer }), 1000, 20);
    console.log(`trainDdpBucketed, P = ${numRanks}, 20 steps: ${t.msPerRun.toFixed(1)} ms per run`);
  }

  const m = 1 << 20;
  const [a, b] = randomBuffers(2, m, 2);
  const rows: Record<string, string | number>[] = [];
  const loop = timeIt(() => addChunk(a, b));
  rows.push({ path: "plain loop (addChunk)", backend: "cpu (JS)", "ms/call": +loop.msPerRun.toFixed(3), "Melem/s": +(m / loop.msPerRun / 1e3).toFixed(1), "equal to addChunk": "—" });
  for (const mode of ["gpu"] as KernelMode[]) { // cpu in Node (lib/kernels/gpujs)
    const k = createReduceKernel(mode);
    try {
      const want = addChunk(a, b), got = k.reduce(a, b);
      let equal = got.length === want.length;
      for (let i = 0; equal && i < m; i++) equal = Object.is(got[i], want[i]);
      const t = timeIt(() => k.reduce(a, b));
      rows.push({ path: `gpu.js kernel (mode "${mode}")`, backend: k.backend, "ms/call": +t.msPerRun.toFixed(3), "Melem/s": +(m / t.msPerRun / 1e3).toFixed(1), "equal to addChunk": equal ? "yes" : "NO" });
    } finally {
      k.destroy();
    }
  }
  console.log(`reduction step on ${m} float32 elements:`);
  console.table(rows);
}
