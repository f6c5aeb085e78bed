import { notImplemented } from "../harness/index.js";

/** One bucket: when its gradients are all ready (ms after backward starts) and how long its all-reduce takes. */
export interface BucketTiming {
  readyMs: number;
  allReduceMs: number;
}

/**
 * Exercise 5.5 — the time of one DDP step, with or without overlap.
 *
 * Contract: a step is forward, then backward, then the optimizer step, which
 * needs every bucket's all-reduced gradients. All-reduces run one at a time on
 * one communication stream, in the order of `buckets` (DDP's bucket order),
 * which need not be the order in which they become ready. With `overlap`, a
 * bucket's all-reduce may start once its gradients are ready; without it, not
 * before backward has ended. Return the step time in ms.
 *
 * Units: ms; `readyMs` counts from the start of backward. Precondition: every
 * bucket is ready by the end of backward (0 ≤ readyMs ≤ backwardMs).
 * Errors (RangeError, the message names the field): a duration that is negative,
 * NaN, ±Infinity or not a number, e.g. `forwardMs must be a finite number >= 0, got -1`,
 * `buckets[2].allReduceMs must be a finite number >= 0, got NaN`; a bucket ready
 * after backward: `buckets[1].readyMs must be <= backwardMs (4), got 5`.
 * `buckets` may be empty. Tolerance |Δ| ≤ 1e-9 + 1e-9·|expected|.
 * Read first: the page's section "DataParallel versus DistributedDataParallel"; Li et al. 2020, Sec. 3.2.3.
 *
 * @param step forwardMs, backwardMs, buckets (all-reduce order), optimizerMs, overlap
 * @returns step time in ms
 * @example ddpStepTimeMs({ forwardMs: 1, backwardMs: 4, buckets: [{ readyMs: 2, allReduceMs: 3 }], optimizerMs: 1, overlap: true }) // 7
 */
export function ddpStepTimeMs(step: { forwardMs: number; backwardMs: number; buckets: BucketTiming[]; optimizerMs: number; overlap: boolean }): number {
  return notImplemented("5.5");
}
