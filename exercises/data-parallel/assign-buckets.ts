import { notImplemented } from "../harness/index.js";

/**
 * Exercise 5.4 — DDP gradient buckets.
 *
 * Contract: the buckets PyTorch's DDP reducer uses once it has seen an
 * iteration (`compute_bucket_assignment_by_size` in reducer.cpp, applied by
 * `rebuild_buckets`), for a model whose gradients become ready in the reverse
 * of the forward order. Returned in all-reduce order, each bucket lists its
 * parameter indices in the order their gradients become ready. Every parameter
 * is in exactly one bucket; a bucket is closed as soon as its bytes reach its
 * cap (≥), so a bucket may exceed its cap by its last parameter and only the
 * last bucket may stay below its cap. The first bucket's cap is
 * `firstBucketCapBytes` (PyTorch: `_DEFAULT_FIRST_BUCKET_BYTES` = 1 MiB), every
 * later one's `bucketCapBytes` (PyTorch: `bucket_cap_mb` · 2^20, default 25 MiB).
 * No parameter → no bucket. Return new arrays.
 *
 * Units: bytes. Errors (RangeError, the message names the field):
 * `paramBytes[2] must be a finite number >= 0, got -1` (also for NaN, Infinity, strings);
 * `bucketCapBytes must be a finite number > 0, got 0`, `firstBucketCapBytes must be a finite number > 0, got Infinity`.
 * Read first: the page's section "DataParallel versus DistributedDataParallel" (the buckets
 * paragraph); Li et al. 2020, Sec. 3.2.3. Do not read lib/data-parallel/assignBuckets.ts before solving.
 *
 * @param paramBytes bytes of each parameter's gradient, forward (definition) order
 * @param bucketCapBytes cap of every bucket after the first (> 0)
 * @param firstBucketCapBytes cap of the first bucket (> 0)
 * @returns parameter indices per bucket, in all-reduce order
 * @example assignBuckets([4, 4, 4, 4], 8, 4) // [[3], [2, 1], [0]]
 */
export function assignBuckets(paramBytes: number[], bucketCapBytes: number, firstBucketCapBytes: number): number[][] {
  return notImplemented("5.4");
}
