/**
 * Chapter 14 benchmarks (npm run bench -- expert-parallel): one MoE block (h = 64, E = 8 experts of H = 64,
 * top-2, 256 tokens) forward + backward on one device (lib/nn's moeLayer) beside lib/expert-parallel's
 * expertParallelMoe on P = 1, 2, 4, 8 simulated ranks (all on one thread: the figures show the simulation's
 * overhead, not a speed-up); then the grader of the build-it exercise 14.1 on the reference.
 * Prints figures with units; asserts nothing.
 */
import { cpuOps, gaussian, groupBounds, moeLayer, mulberry32 } from "../lib/nn/index.js";
import { EpComm, expertParallelMoe } from "../lib/expert-parallel/index.js";
import { gradeExercise } from "../exercises/harness/index.js";
import exercise from "../exercises/expert-parallel/expert-parallel-moe.test.js";

function timeIt(fn: () => void, minMs = 1000, maxRuns = 30): number {
  fn();
  let runs = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < minMs && runs < maxRuns) { fn(); runs++; }
  return (performance.now() - t0) / runs;
}

export default async function bench(): Promise<void> {
  const h = 64, N = 256, E = 8, rng = mulberry32(1);
  const x = Float32Array.from({ length: N * h }, () => gaussian(rng)), dy = Float32Array.from({ length: N * h }, () => gaussian(rng));
  const one = moeLayer("m", h, mulberry32(2), { numExperts: E, topK: 2, expertHiddenDim: 64 });
  const ms = timeIt(() => { const f = one.forward({ data: x, rows: N, cols: h }, cpuOps()); one.backward(f.saved, { data: dy, rows: N, cols: h }, cpuOps()); });
  console.log(`moeLayer forward + backward, one device: ${ms.toFixed(2)} ms`);
  for (const P of [1, 2, 4, 8]) {
    const ranks = Array.from({ length: P }, (_, r) => ({ router: one.router, experts: one.experts.slice((r * E) / P, ((r + 1) * E) / P) }));
    const split = (a: Float32Array) => groupBounds(N, P).map(([s, e]) => a.slice(s * h, e * h));
    const t = timeIt(() => expertParallelMoe(new EpComm(P), ranks, split(x), split(dy), { ...one.options, hiddenSize: h }));
    console.log(`expertParallelMoe forward + backward, P = ${P}: ${t.toFixed(2)} ms (4 all-to-alls on the simulated World)`);
  }
  const t0 = performance.now();
  await gradeExercise(exercise, exercise.reference);
  console.log(`exercise ${exercise.id}'s grader on the reference: ${(performance.now() - t0).toFixed(0)} ms`);
}
