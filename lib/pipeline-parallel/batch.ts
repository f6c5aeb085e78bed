/**
 * Batch bookkeeping, as DeepSpeed checks it.
 */

/** Batch sizes of a run. Give at least two of the three batch fields; dataParallelSize is required. */
export interface BatchConfig {
  /** Global batch: samples per optimizer step, over all data-parallel replicas (DeepSpeed's train_batch_size). */
  trainBatchSize?: number;
  /** Samples per micro-batch per data-parallel replica (DeepSpeed's train_micro_batch_size_per_gpu). */
  microBatchSize?: number;
  /** Micro-batches per optimizer step per replica; with pipeline parallelism this is m (DeepSpeed's gradient_accumulation_steps). */
  gradientAccumulationSteps?: number;
  /** Data-parallel replicas: GPUs / (tensor-parallel size × pipeline-parallel size), not the GPU count. */
  dataParallelSize: number;
}

/** A consistent batch configuration. */
export type ResolvedBatch = Required<BatchConfig>;

/**
 * Completes and checks the batch sizes: trainBatchSize = microBatchSize × gradientAccumulationSteps
 * × dataParallelSize. Given two of the three batch fields, derives the third (it must divide
 * exactly); given all three, checks the product. All fields are integers ≥ 1.
 * @param c the batch fields (see {@link BatchConfig})
 * @returns a new object with all four fields
 * @throws {RangeError} `dataParallelSize must be an integer >= 1, got 0` (and the same for each given field);
 *   `trainBatchSize is not equal to microBatchSize * gradientAccumulationSteps * dataParallelSize: 16 != 2 * 4 * 4`;
 *   `trainBatchSize = 10 is not divisible by microBatchSize * dataParallelSize = 2 * 4`;
 *   `give at least two of trainBatchSize, microBatchSize, gradientAccumulationSteps`
 * @example resolveBatch({ trainBatchSize: 512, microBatchSize: 4, dataParallelSize: 8 }) // { trainBatchSize: 512, microBatchSize: 4, gradientAccumulationSteps: 16, dataParallelSize: 8 }
 * @see DeepSpeed, deepspeed/runtime/config.py (`_batch_assertion`, `_set_batch_related_parameters`: the same rule and a message naming the three fields)
 */
export function resolveBatch(c: BatchConfig): ResolvedBatch {
  if (c === null || typeof c !== "object") throw new TypeError(`batch config must be an object, got ${String(c)}`);
  const int = (name: string, x: unknown) => {
    if (typeof x !== "number" || !Number.isInteger(x) || x < 1) throw new RangeError(`${name} must be an integer >= 1, got ${String(x)}`);
    return x;
  };
  const d = int("dataParallelSize", c.dataParallelSize);
  const g = c.trainBatchSize === undefined ? undefined : int("trainBatchSize", c.trainBatchSize);
  const b = c.microBatchSize === undefined ? undefined : int("microBatchSize", c.microBatchSize);
  const a = c.gradientAccumulationSteps === undefined ? undefined : int("gradientAccumulationSteps", c.gradientAccumulationSteps);
  if (g !== undefined && b !== undefined && a !== undefined) {
    if (g !== b * a * d) throw new RangeError(`trainBatchSize is not equal to microBatchSize * gradientAccumulationSteps * dataParallelSize: ${g} != ${b} * ${a} * ${d}`);
    return { trainBatchSize: g, microBatchSize: b, gradientAccumulationSteps: a, dataParallelSize: d };
  }
  if (g !== undefined && b !== undefined) {
    if (g % (b * d) !== 0) throw new RangeError(`trainBatchSize = ${g} is not divisible by microBatchSize * dataParallelSize = ${b} * ${d}`);
    return { trainBatchSize: g, microBatchSize: b, gradientAccumulationSteps: g / (b * d), dataParallelSize: d };
  }
  if (g !== undefined && a !== undefined) {
    if (g % (a * d) !== 0) throw new RangeError(`trainBatchSize = ${g} is not divisible by gradientAccumulationSteps * dataParallelSize = ${a} * ${d}`);
    return { trainBatchSize: g, microBatchSize: g / (a * d), gradientAccumulationSteps: a, dataParallelSize: d };
  }
  if (b !== undefined && a !== undefined) return { trainBatchSize: b * a * d, microBatchSize: b, gradientAccumulationSteps: a, dataParallelSize: d };
  throw new RangeError("give at least two of trainBatchSize, microBatchSize, gradientAccumulationSteps");
}

/**
 * Data-parallel size from the GPU count: gpus / (tp · pp), which must divide exactly.
 * @throws {RangeError} `gpus = 12 is not divisible by tp * pp = 8`; `gpus must be an integer >= 1, got 0`
 * @example dataParallelSize(64, 8, 4) // 2
 * @see Narayanan et al. 2021, §3 (n = p·t·d)
 */
export function dataParallelSize(gpus: number, tp: number, pp: number): number {
  for (const [k, x] of [["gpus", gpus], ["tp", tp], ["pp", pp]] as const) if (!Number.isInteger(x) || x < 1) throw new RangeError(`${k} must be an integer >= 1, got ${x}`);
  if (gpus % (tp * pp) !== 0) throw new RangeError(`gpus = ${gpus} is not divisible by tp * pp = ${tp * pp}`);
  return gpus / (tp * pp);
}
