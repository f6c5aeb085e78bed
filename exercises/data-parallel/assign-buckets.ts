import { notImplemented } from "../harness/index.js";

/**
 * Exercise 5.4 — DDP gradient buckets.
 *
 * `paramBytes[i]` is the gradient size of parameter i, in forward
 * (definition) order. Group the parameters into buckets as PyTorch's DDP
 * reducer does once it has seen an iteration: walk the parameters in the order
 * their gradients become ready — the reverse of the forward order — adding
 * each one to the open bucket; as soon as the bucket's bytes reach its cap
 * (bytes ≥ cap), close it and open a new one. The first bucket's cap is
 * `firstBucketCapBytes` (PyTorch: 1 MiB); every later bucket's is
 * `bucketCapBytes` (PyTorch: bucket_cap_mb = 25 → 25·2^20 bytes). The last
 * bucket may be below its cap; a bucket may exceed its cap by its last
 * parameter.
 *
 * Return the buckets in all-reduce order, each as the list of parameter
 * indices in the order they were added. No parameter → no bucket.
 * Read: the chapter's "buckets" section; reducer.cpp compute_bucket_assignment_by_size.
 *
 * @param paramBytes bytes of each parameter's gradient, forward order
 * @param bucketCapBytes cap of every bucket after the first (> 0)
 * @param firstBucketCapBytes cap of the first bucket (> 0)
 * @returns parameter indices per bucket, in all-reduce order
 * @example assignBuckets([4, 4, 4, 4], 8, 4) // [[3], [2, 1], [0]]
 */
export function assignBuckets(paramBytes: number[], bucketCapBytes: number, firstBucketCapBytes: number): number[][] {
  return notImplemented("5.4");
}
