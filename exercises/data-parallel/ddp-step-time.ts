import { notImplemented } from "../harness/index.js";

/** One bucket: when its gradients are all ready (ms after backward starts) and how long its all-reduce takes. */
export interface BucketTiming {
  readyMs: number;
  allReduceMs: number;
}

/**
 * Exercise 5.5 — the time of one DDP step, with or without overlap.
 *
 * A step is forward, then backward, then the optimizer step, which needs every
 * bucket's all-reduced gradients. All-reduces run one at a time on one
 * communication stream, in bucket order:
 *
 * - with `overlap`, bucket b's all-reduce starts as soon as it is ready and the
 *   previous all-reduce has finished;
 * - without it, all-reduces wait for the end of backward, then run back to back.
 *
 * The optimizer starts when both backward and the last all-reduce are done.
 * Return the step time in ms. All durations are ≥ 0; `buckets` may be empty.
 * Tolerance |Δ| ≤ 1e-9 + 1e-9·|expected|.
 * Read: the chapter's "DP versus DDP" section; Li et al. 2020, Sec. 3.2.3.
 *
 * @param step forwardMs, backwardMs, buckets (all-reduce order), optimizerMs, overlap
 * @returns step time in ms
 * @example ddpStepTimeMs({ forwardMs: 1, backwardMs: 4, buckets: [{ readyMs: 2, allReduceMs: 3 }], optimizerMs: 1, overlap: true }) // 7
 */
export function ddpStepTimeMs(step: { forwardMs: number; backwardMs: number; buckets: BucketTiming[]; optimizerMs: number; overlap: boolean }): number {
  return notImplemented("5.5");
}
