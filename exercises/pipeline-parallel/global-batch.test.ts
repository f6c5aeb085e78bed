import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { resolveBatch as reference } from "../../lib/pipeline-parallel/index.js";
import type { resolveBatch } from "./global-batch.js";

type F = typeof resolveBatch;
const ref: F = (c) => reference(c);
const same = (f: F, c: Parameters<F>[0], hint: string) => expectSame(f, ref, [c], { hint, name: "resolveBatch" });
const HINT = "see the section on micro-batches and the global batch";

/** expectThrows, and the error's class must be RangeError (the contract names it). */
async function expectRangeError<G extends (...a: never[]) => unknown>(f: G, args: Parameters<G>, pattern: RegExp, hint?: string): Promise<void> {
  await expectThrows(f as never, args as never, pattern, { class: RangeError, hint: hint ?? "the stub's contract names the error class" });
}

export default defineExercise<F>({
  id: "7.1",
  kind: "transcription",
  title: "global batch bookkeeping",
  chapter: "pipeline-parallel",
  section: "micro-batches-and-the-global-batch",
  file: "exercises/pipeline-parallel/global-batch.ts",
  exportName: "resolveBatch",
  signature: "resolveBatch(c: { trainBatchSize?, microBatchSize?, gradientAccumulationSteps?, dataParallelSize }): { trainBatchSize, microBatchSize, gradientAccumulationSteps, dataParallelSize }",
  summary:
    "Global batch = micro-batch × accumulation steps (m) × data-parallel size, as DeepSpeed checks train_batch_size. Given the data-parallel size and two of the other three, derive the third when it divides exactly; given all three, check them. Errors are RangeErrors that name the field or the mismatch (messages in the stub).",
  reference: ref,
  checks: [
    { name: "the stub's example", points: 2, run: async (f) => {
        await same(f, { trainBatchSize: 512, microBatchSize: 4, dataParallelSize: 8 }, "512 samples over 8 replicas of 4-sample micro-batches");
    } },
    { name: "derives any missing field", points: 2, run: (f) =>
        property(fc.tuple(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 32 }), fc.integer({ min: 0, max: 3 })), async ([b, a, d, which]) => {
          const full = { trainBatchSize: b * a * d, microBatchSize: b, gradientAccumulationSteps: a, dataParallelSize: d };
          const c: Parameters<F>[0] = { ...full };
          if (which === 0) delete c.trainBatchSize; else if (which === 1) delete c.microBatchSize; else if (which === 2) delete c.gradientAccumulationSteps;
          await same(f, c, HINT);
        }, { numRuns: 120 }) },
    { name: "names the mismatch", points: 2, run: async (f) => {
        await expectRangeError(f, [{ trainBatchSize: 16, microBatchSize: 2, gradientAccumulationSteps: 4, dataParallelSize: 4 }], /^trainBatchSize is not equal to microBatchSize \* gradientAccumulationSteps \* dataParallelSize: 16 != 2 \* 4 \* 4$/, "all three given: check the product, do not pick two");
        await expectRangeError(f, [{ trainBatchSize: 10, microBatchSize: 2, dataParallelSize: 4 }], /^trainBatchSize = 10 is not divisible by microBatchSize \* dataParallelSize = 2 \* 4$/, "a missing field must divide exactly; never round");
        await expectRangeError(f, [{ trainBatchSize: 96, gradientAccumulationSteps: 5, dataParallelSize: 3 }], /^trainBatchSize = 96 is not divisible by gradientAccumulationSteps \* dataParallelSize = 5 \* 3$/, "a missing field must divide exactly; never round");
    } },
    { name: "rejects bad fields by name", points: 2, run: async (f) => {
        await expectRangeError(f, [{ trainBatchSize: 8, microBatchSize: 0, dataParallelSize: 4 }], /^microBatchSize must be an integer >= 1, got 0$/);
        await expectRangeError(f, [{ trainBatchSize: 8, microBatchSize: 1, dataParallelSize: 1.5 }], /^dataParallelSize must be an integer >= 1, got 1.5$/);
        await expectRangeError(f, [{ microBatchSize: 2, gradientAccumulationSteps: -1, dataParallelSize: 2 }], /^gradientAccumulationSteps must be an integer >= 1, got -1$/);
        await expectRangeError(f, [{ trainBatchSize: 8, dataParallelSize: 2 }], /^give at least two of trainBatchSize, microBatchSize, gradientAccumulationSteps$/);
    } },
  ],
});
