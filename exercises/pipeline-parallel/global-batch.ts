import { notImplemented } from "../harness/index.js";

/**
 * Exercise 7.1 — the global batch, as DeepSpeed checks it.
 *
 * trainBatchSize (samples per optimizer step) = microBatchSize × gradientAccumulationSteps ×
 * dataParallelSize, where dataParallelSize counts model replicas (GPUs / (tensor × pipeline size)),
 * not GPUs. Given dataParallelSize and at least two of the other three fields, return all four
 * (a new object); derive a missing one only when it divides exactly. Every given field is an
 * integer ≥ 1.
 *
 * Errors (RangeError), messages as in lib/pipeline-parallel:
 * - `<field> must be an integer >= 1, got <value>` (e.g. `microBatchSize must be an integer >= 1, got 0`)
 * - all three given and inconsistent: `trainBatchSize is not equal to microBatchSize * gradientAccumulationSteps * dataParallelSize: 16 != 2 * 4 * 4`
 * - a missing field that does not divide: `trainBatchSize = 10 is not divisible by microBatchSize * dataParallelSize = 2 * 4`
 *   (or `… by gradientAccumulationSteps * dataParallelSize = …`)
 * - fewer than two given: `give at least two of trainBatchSize, microBatchSize, gradientAccumulationSteps`
 *
 * Read: the chapter's "Micro-batches and the global batch" section; DeepSpeed's batch-size rule
 * (deepspeed/runtime/config.py).
 *
 * @param c { trainBatchSize?, microBatchSize?, gradientAccumulationSteps?, dataParallelSize }
 * @returns { trainBatchSize, microBatchSize, gradientAccumulationSteps, dataParallelSize }
 * @example resolveBatch({ trainBatchSize: 512, microBatchSize: 4, dataParallelSize: 8 }) // { trainBatchSize: 512, microBatchSize: 4, gradientAccumulationSteps: 16, dataParallelSize: 8 }
 */
export function resolveBatch(c: { trainBatchSize?: number; microBatchSize?: number; gradientAccumulationSteps?: number; dataParallelSize: number }): { trainBatchSize: number; microBatchSize: number; gradientAccumulationSteps: number; dataParallelSize: number } {
  return notImplemented("7.1");
}
