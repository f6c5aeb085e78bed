/**
 * Chapter 14 benchmarks (npm run bench -- expert-parallel): TODO. Prints figures with units; asserts nothing.
 */
import { meanSquare } from "../lib/expert-parallel/index.js";
import { gradeExercise } from "../exercises/harness/index.js";
import exercise from "../exercises/expert-parallel/mean-square.test.js";

export default async function bench(): Promise<void> {
  const xs = Array.from({ length: 1_000_000 }, (_, i) => Math.sin(i));
  let t0 = performance.now();
  meanSquare(xs);
  console.log(`meanSquare on 10⁶ values: ${(performance.now() - t0).toFixed(1)} ms`);
  t0 = performance.now();
  await gradeExercise(exercise, exercise.reference);
  console.log(`exercise ${exercise.id}'s grader on the reference: ${(performance.now() - t0).toFixed(0)} ms`);
}
