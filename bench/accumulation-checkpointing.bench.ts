/**
 * Chapter 3 benchmarks: time per optimizer step of accumulateCheckpointed on
 * the course model (K micro-batches × segmentations: the price of recomputation
 * in wall-clock time, beside the peak the ActivationStore measured), and how
 * long exercise 3.5's grader takes with the reference (its budget is 30 s).
 * Prints figures; asserts nothing.
 */
import { corpus, createModel, mulberry32, sampleBatch, cpuOps } from "../lib/nn/index.js";
import { accumulateCheckpointed, ActivationStore, sqrtSegments } from "../lib/accumulation-checkpointing/index.js";
import { gradeExercise } from "../exercises/harness/index.js";
import build from "../exercises/accumulation-checkpointing/train-checkpointed.test.js";

function timeIt(fn: () => void, minMs: number, maxReps: number): number {
  fn(); // warm-up
  let reps = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < minMs && reps < maxReps) { fn(); reps++; }
  return (performance.now() - t0) / reps;
}

export default async function bench(): Promise<void> {
  const { tokens, vocab } = corpus();
  const model = createModel({ vocabSize: vocab.size, contextLength: 8, embedDim: 8, width: 32, hiddenDim: 64, numBlocks: 6, seed: 1 });
  const n = model.layers.length, ops = cpuOps(), rng = mulberry32(3);
  const micro = () => sampleBatch(tokens, { batchSize: 8, seqLen: 16, contextLength: 8 }, rng);
  const rows: Record<string, string | number>[] = [];
  for (const K of [1, 4]) {
    const window = Array.from({ length: K }, micro);
    let base = 0;
    for (const [name, segments] of [["one segment", [n]], ["√n", sqrtSegments(n)], ["every layer", Array(n).fill(1)]] as const) {
      console.log(`  K = ${K}, ${name} …`);
      let peak = 0;
      const ms = timeIt(() => { const store = new ActivationStore(); accumulateCheckpointed(model, window, { segments: [...segments], store, ops }); peak = store.peakBytes; }, 400, 200);
      if (name === "one segment") base = ms;
      rows.push({ K, segments: `[${segments.join(",")}]`, "ms/step": ms.toFixed(2), "vs one segment": `${(ms / base).toFixed(2)}×`, "peak KiB": (peak / 1024).toFixed(1) });
    }
  }
  console.table(rows);
  console.log("  grading exercise 3.5 with the reference …");
  const t0 = performance.now();
  const r = await gradeExercise(build, build.reference);
  console.log(`exercise 3.5 graded in ${((performance.now() - t0) / 1000).toFixed(2)} s (budget 30 s): ${r.earned} points`);
}
