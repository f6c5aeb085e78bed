/**
 * Input of {@link allReduceSchedule}: one bucket's readiness and all-reduce duration.
 * @see the sources of {@link allReduceSchedule}: Li et al. 2020, "PyTorch Distributed", VLDB, Sec. 3.2.3 (overlap computation with communication)
 */
export interface BucketTiming {
  /** When the bucket's last gradient is ready, in ms from the start of backward. */
  readyMs: number;
  /** How long its all-reduce takes, in ms. */
  allReduceMs: number;
}

/**
 * When each bucket's all-reduce starts and ends (ms from the start of backward).
 * @see the sources of {@link allReduceSchedule}: Li et al. 2020, "PyTorch Distributed", VLDB, Sec. 3.2.3 (overlap computation with communication)
 */
export interface AllReduceSchedule {
  startMs: number[];
  endMs: number[];
  /** End of the last all-reduce (0 when there is no bucket). */
  commEndMs: number;
}

/**
 * Schedules bucket all-reduces on one communication stream, in bucket order:
 * each starts when it is ready and the previous one has finished,
 * start_b = max(ready_b, end_{b−1}), end_b = start_b + allReduce_b. Without
 * overlap every all-reduce waits for the end of backward:
 * ready_b is replaced by backwardMs. Precondition: every bucket is ready
 * by the end of backward (readyMs ≤ backwardMs), since its gradients come
 * from backward.
 *
 * @param buckets in all-reduce order
 * @param backwardMs duration of the whole backward pass (ms ≥ 0)
 * @param overlap launch each bucket as soon as it is ready (DDP) or after backward
 * @returns start and end of each all-reduce, and the end of the last one
 * @throws RangeError `buckets[1].allReduceMs must be a finite number >= 0, got -1`;
 *   `buckets[0].readyMs must be <= backwardMs (4), got 5 (a bucket's gradients come from backward)`
 * @example allReduceSchedule([{ readyMs: 2, allReduceMs: 3 }, { readyMs: 4, allReduceMs: 3 }], 4, true).commEndMs // 8
 * @see Li et al. 2020, "PyTorch Distributed", VLDB, Sec. 3.2.3 (overlap computation with communication)
 */
export function allReduceSchedule(buckets: readonly BucketTiming[], backwardMs: number, overlap: boolean): AllReduceSchedule {
  checkMs("backwardMs", backwardMs);
  const startMs: number[] = [];
  const endMs: number[] = [];
  let free = 0;
  buckets.forEach((b, i) => {
    checkMs(`buckets[${i}].readyMs`, b.readyMs);
    if (b.readyMs > backwardMs) throw new RangeError(`buckets[${i}].readyMs must be <= backwardMs (${backwardMs}), got ${b.readyMs} (a bucket's gradients come from backward)`);
    checkMs(`buckets[${i}].allReduceMs`, b.allReduceMs);
    const start = Math.max(overlap ? b.readyMs : Math.max(b.readyMs, backwardMs), free);
    startMs.push(start);
    free = start + b.allReduceMs;
    endMs.push(free);
  });
  return { startMs, endMs, commEndMs: free };
}

/**
 * Input of {@link ddpStepTimeMs}.
 * @see the sources of {@link allReduceSchedule}: Li et al. 2020, "PyTorch Distributed", VLDB, Sec. 3.2.3 (overlap computation with communication)
 */
export interface DdpStepInput {
  forwardMs: number;
  backwardMs: number;
  /** Buckets in all-reduce order, ready times measured from the start of backward. */
  buckets: BucketTiming[];
  optimizerMs: number;
  overlap: boolean;
}

/**
 * Time of one DDP training step: forward, then backward with the bucket
 * all-reduces (overlapped or not), then the optimizer step, which needs every
 * averaged gradient:
 * step = forward + max(backward, commEnd) + optimizer.
 *
 * @param step durations in ms (each ≥ 0) and the buckets
 * @returns the step time in ms
 * @throws RangeError `forwardMs must be a finite number >= 0, got NaN`; `buckets[0].readyMs must be <= backwardMs (4), got 5 (a bucket's gradients come from backward)`
 *   (and the other errors of {@link allReduceSchedule})
 * @example ddpStepTimeMs({ forwardMs: 1, backwardMs: 4, buckets: [{ readyMs: 2, allReduceMs: 3 }], optimizerMs: 1, overlap: true }) // 7
 * @see Li et al. 2020, Sec. 3.2.3; DistributedDataParallel docs
 */
export function ddpStepTimeMs(step: DdpStepInput): number {
  checkMs("forwardMs", step.forwardMs);
  checkMs("optimizerMs", step.optimizerMs);
  const { commEndMs } = allReduceSchedule(step.buckets, step.backwardMs, step.overlap);
  return step.forwardMs + Math.max(step.backwardMs, commEndMs) + step.optimizerMs;
}

/**
 * Checks a duration.
 * @throws RangeError `<name> must be a finite number >= 0, got <value>`
 * @param name the field named in the message, e.g. "optimizerMs"
 * @param v the value to check (a duration in ms, or any non-negative quantity such as bytes)
 * @returns v, as a number
 * @example checkMs("optimizerMs", 0.3) // 0.3
 * @see the house rule on bad input (shared design.md: a RangeError naming the field and the allowed range)
 */
export function checkMs(name: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw new RangeError(`${name} must be a finite number >= 0, got ${String(v)}`);
  return v;
}
