/**
 * One gradient bucket: the parameters it holds, in the order their gradients become ready.
 * @see the sources of {@link MIB}: PyTorch DistributedDataParallel docs (bucket_cap_mb) and torch/nn/parallel/distributed.py (`bucket_cap_mb * 1024 * 1024`)
 */
export interface Bucket {
  /** Indices into the forward-order parameter list, in gradient-ready (reverse) order. */
  paramIndices: number[];
  /** Sum of the parameters' gradient bytes. */
  bytes: number;
  /** The cap this bucket was filled against (firstBucketCapBytes for bucket 0). */
  capBytes: number;
}

/**
 * Options of {@link assignBuckets}; defaults are PyTorch's.
 * @see the sources of {@link MIB}: PyTorch DistributedDataParallel docs (bucket_cap_mb) and torch/nn/parallel/distributed.py (`bucket_cap_mb * 1024 * 1024`)
 */
export interface BucketOptions {
  /** `bucket_cap_mb · 2^20`: default 25 MiB (DDP's `bucket_cap_mb=25`). */
  bucketCapBytes?: number;
  /** Cap of the first bucket to be all-reduced: default 1 MiB (`dist._DEFAULT_FIRST_BUCKET_BYTES`). */
  firstBucketCapBytes?: number;
}

/**
 * 2^20 bytes: PyTorch's MB in `bucket_cap_mb`.
 * @example 25 * MIB // 26214400, DDP's default bucket_cap_mb=25 in bytes
 * @see PyTorch DistributedDataParallel docs (bucket_cap_mb) and torch/nn/parallel/distributed.py (`bucket_cap_mb * 1024 * 1024`)
 */
export const MIB = 2 ** 20;

/**
 * Groups gradients into DDP buckets the way PyTorch's reducer does after its
 * first iteration (`Reducer::rebuild_buckets` → `compute_bucket_assignment_by_size`):
 * walk the parameters in the order their gradients become ready — the reverse
 * of the forward order — adding each to the open bucket; once the bucket's
 * bytes reach its cap (≥), close it. The first bucket's cap is
 * `firstBucketCapBytes`, every later one `bucketCapBytes`. A bucket can
 * therefore exceed its cap by its last parameter, and a parameter larger than
 * the cap gets a bucket of its own. (In the first iteration, with
 * find_unused_parameters=False, DDP uses a single bucket; with
 * find_unused_parameters=True it never rebuilds and keeps a forward-order
 * assignment whose small bucket holds the first layers.)
 *
 * @param paramBytes gradient bytes of each parameter, in forward (definition) order; each a finite number ≥ 0
 * @param options caps in bytes (> 0)
 * @returns buckets in all-reduce order: bucket 0 holds the last layers
 * @throws RangeError `paramBytes[2] must be a finite number >= 0, got -1`; `bucketCapBytes must be a finite number > 0, got 0`
 * @example assignBuckets([4, 4, 4, 4], { bucketCapBytes: 8, firstBucketCapBytes: 4 })
 *   // [{paramIndices: [3], bytes: 4, capBytes: 4}, {paramIndices: [2, 1], bytes: 8, capBytes: 8}, {paramIndices: [0], bytes: 4, capBytes: 8}]
 * @see PyTorch torch/csrc/distributed/c10d/reducer.cpp (compute_bucket_assignment_by_size, rebuild_buckets);
 *   DistributedDataParallel docs (bucket_cap_mb); Li et al. 2020, "PyTorch Distributed", VLDB, Sec. 3.2.3
 */
export function assignBuckets(paramBytes: readonly number[], options: BucketOptions = {}): Bucket[] {
  const cap = options.bucketCapBytes ?? 25 * MIB;
  const firstCap = options.firstBucketCapBytes ?? MIB;
  for (const [name, v] of [["bucketCapBytes", cap], ["firstBucketCapBytes", firstCap]] as const) {
    if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) throw new RangeError(`${name} must be a finite number > 0, got ${v}`);
  }
  if (!Array.isArray(paramBytes)) throw new TypeError("paramBytes must be an array of byte counts");
  paramBytes.forEach((b, i) => {
    if (typeof b !== "number" || !Number.isFinite(b) || b < 0) throw new RangeError(`paramBytes[${i}] must be a finite number >= 0, got ${b}`);
  });
  const buckets: Bucket[] = [];
  let open: Bucket = { paramIndices: [], bytes: 0, capBytes: firstCap };
  for (let i = paramBytes.length - 1; i >= 0; i--) {
    open.paramIndices.push(i);
    open.bytes += paramBytes[i];
    if (open.bytes >= open.capBytes) {
      buckets.push(open);
      open = { paramIndices: [], bytes: 0, capBytes: cap };
    }
  }
  if (open.paramIndices.length > 0) buckets.push(open);
  return buckets;
}
