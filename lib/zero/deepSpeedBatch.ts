/**
 * DeepSpeed's batch rule: train_batch_size = train_micro_batch_size_per_gpu
 * × gradient_accumulation_steps × data-parallel size, any two (with the
 * world size) giving the third.
 */

/** The three batch sizes and the data-parallel size they imply. */
export interface DeepSpeedBatch {
  trainBatchSize: number;
  microBatchPerGpu: number;
  gradientAccumulationSteps: number;
  dataParallelSize: number;
}

/**
 * Resolves the batch sizes as `DeepSpeedConfig._set_batch_related_parameters`
 * and `_batch_assertion` do; without a world size, a full triple implies it.
 * @param tb train_batch_size, or undefined
 * @param mb train_micro_batch_size_per_gpu, or undefined
 * @param gas gradient_accumulation_steps, or undefined
 * @param ws the data-parallel world size, or undefined
 * @returns {@link DeepSpeedBatch}
 * @throws RangeError `train_batch_size (100) must equal train_micro_batch_size_per_gpu (8) × gradient_accumulation_steps (8) × data-parallel size (2) = 128`;
 *   `give train_batch_size or train_micro_batch_size_per_gpu (DeepSpeed needs one of them)`
 * @example deepSpeedBatch(undefined, 8, 8, 8).trainBatchSize // 512
 * @see deepspeed/runtime/config.py `_set_batch_related_parameters`, `_batch_assertion` at edaa722
 */
export function deepSpeedBatch(tb: number | undefined, mb: number | undefined, gas: number | undefined, ws: number | undefined): DeepSpeedBatch {
  const need = (what: string) => { throw new RangeError(`${what} needs the data-parallel size: give the Trainer's world_size (or worldSize)`); };
  let micro = mb, acc = gas, total = tb, dp = ws;
  if (total !== undefined && micro !== undefined && acc !== undefined) {
    if (dp === undefined) {
      if (total % (micro * acc) !== 0) throw new RangeError(`train_batch_size (${total}) must equal train_micro_batch_size_per_gpu (${micro}) × gradient_accumulation_steps (${acc}) × data-parallel size: ${total} is not a multiple of ${micro * acc}`);
      dp = total / (micro * acc);
    } else if (total !== micro * acc * dp) {
      throw new RangeError(`train_batch_size (${total}) must equal train_micro_batch_size_per_gpu (${micro}) × gradient_accumulation_steps (${acc}) × data-parallel size (${dp}) = ${micro * acc * dp}`);
    }
  } else if (total !== undefined && micro !== undefined) {
    if (dp === undefined) need("gradient_accumulation_steps from train_batch_size");
    acc = total / (micro * dp!);
    if (!Number.isInteger(acc)) throw new RangeError(`train_batch_size (${total}) must be a multiple of train_micro_batch_size_per_gpu (${micro}) × data-parallel size (${dp})`);
  } else if (total !== undefined) {
    if (dp === undefined) need("train_micro_batch_size_per_gpu from train_batch_size");
    acc = acc ?? 1;
    micro = total / (acc * dp!);
    if (!Number.isInteger(micro)) throw new RangeError(`train_batch_size (${total}) must be a multiple of gradient_accumulation_steps (${acc}) × data-parallel size (${dp})`);
  } else if (micro !== undefined) {
    if (dp === undefined) need("train_batch_size");
    acc = acc ?? 1;
    total = micro * acc * dp!;
  } else {
    throw new RangeError("give train_batch_size or train_micro_batch_size_per_gpu (DeepSpeed needs one of them)");
  }
  return { trainBatchSize: total ?? micro! * acc! * dp!, microBatchPerGpu: micro!, gradientAccumulationSteps: acc!, dataParallelSize: dp! };
}
