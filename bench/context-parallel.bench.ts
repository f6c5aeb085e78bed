/**
 * Chapter 13 benchmarks (npm run bench -- context-parallel): ring attention on the simulated World
 * against one device, the work table of a long sequence, and the build-it grader. Prints figures with
 * units; asserts nothing.
 */
import { contextParallelAttention, ringWork, sequenceShards } from "../lib/context-parallel/index.js";
import { referenceAttention, randomTensor } from "../lib/flash-attention/index.js";
import { gradeExercise } from "../exercises/harness/index.js";
import exercise from "../exercises/context-parallel/ring-attention.test.js";

export default async function bench(): Promise<void> {
  const dims = { B: 1, H: 4, N: 512, d: 32 }, len = 4 * 512 * 32;
  const q = randomTensor(len, 1), k = randomTensor(len, 2), v = randomTensor(len, 3);
  let t0 = performance.now();
  referenceAttention(q, k, v, { B: 1, H: 4, Nq: 512, Nk: 512, d: 32 }, { causal: "top-left" });
  console.log(`one device, causal attention of (1, 4, 512, 32): ${(performance.now() - t0).toFixed(0)} ms`);
  for (const cpSize of [2, 8]) {
    t0 = performance.now();
    contextParallelAttention(q, k, v, dims, { cpSize, layout: "zigzag", causal: true });
    console.log(`ring attention on ${cpSize} simulated ranks (zig-zag), same input: ${(performance.now() - t0).toFixed(0)} ms`);
  }
  t0 = performance.now();
  ringWork(sequenceShards(2 ** 20, 8, "zigzag"), true);
  console.log(`ringWork of a 2²⁰-token sequence on 8 ranks: ${(performance.now() - t0).toFixed(0)} ms`);
  t0 = performance.now();
  await gradeExercise(exercise, exercise.reference);
  console.log(`exercise ${exercise.id}'s grader on the reference: ${(performance.now() - t0).toFixed(0)} ms`);
}
