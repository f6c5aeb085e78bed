import { chunkBounds } from "../collectives/index.js";
import { assignBuckets } from "./assignBuckets.js";
import type { GradCluster, GradMessage } from "./createGradCluster.js";

/**
 * Bucket caps in bytes, as DDP's `bucket_cap_mb` and `_DEFAULT_FIRST_BUCKET_BYTES` set them.
 * @see {@link assignBuckets}
 */
export interface BucketCaps {
  bucketCapBytes: number;
  firstBucketCapBytes: number;
}

/**
 * What a training loop calls during backward: `gradReady(i)` when parameter
 * i's gradient is in every rank's buffer, `finish()` once backward has ended.
 * @see {@link createDdpReducer}
 */
export interface DdpReducer {
  gradReady(paramIndex: number): void;
  finish(): void;
}

/**
 * DDP's reducer on a simulated cluster: gradients (float32, 4 bytes each) are
 * grouped into buckets as {@link assignBuckets} does; a bucket is all-reduced
 * by the ring (reduce-scatter then all-gather over its range of the flat
 * buffer, chunks as {@link chunkBounds} cuts them) as soon as all its
 * gradients are ready and every earlier bucket has been launched, then divided
 * by P, so every rank ends with the mean gradient. Buckets hold consecutive
 * parameters, so each is one contiguous range of the buffer.
 *
 * @param cluster P ranks, their gradient buffers, the communication stream
 * @param paramSizes number of values of each parameter, forward order (integers ≥ 0)
 * @param caps bucket caps in bytes
 * @returns `{gradReady, finish}`
 * @throws RangeError `paramSizes[1] must be an integer >= 0, got 2.5`; the errors of assignBuckets;
 *   from gradReady: `paramIndex must be an integer in [0, 4), got 7`, `parameter 2 was reported ready twice`;
 *   from finish: `buckets 1..2 were never all-reduced: parameters 0, 1 never became ready`
 * @example
 * // two ranks, one parameter of 2 values: after finish() both ranks hold the mean
 * const c = createGradCluster(2, 2, DEFAULT_COST_MODEL);
 * c.cluster.grads[0].set([1, 2]); c.cluster.grads[1].set([3, 6]);
 * const red = createDdpReducer(c.cluster, [2], { bucketCapBytes: 8, firstBucketCapBytes: 8 });
 * red.gradReady(0); red.finish(); // c.cluster.grads[0] and [1] are Float32Array [2, 4]
 * @see PyTorch torch/csrc/distributed/c10d/reducer.cpp (mark_variable_ready, bucket launch in order);
 *   Li et al. 2020, VLDB, §3.2.3; Patarasuk & Yuan 2009 (the ring)
 */
export function createDdpReducer(cluster: GradCluster, paramSizes: readonly number[], caps: BucketCaps): DdpReducer {
  paramSizes.forEach((s, i) => {
    if (!Number.isInteger(s) || s < 0) throw new RangeError(`paramSizes[${i}] must be an integer >= 0, got ${s}`);
  });
  const P = cluster.numRanks;
  const offsets = paramSizes.map((_, i) => paramSizes.slice(0, i).reduce((a, b) => a + b, 0));
  const buckets = assignBuckets(paramSizes.map((s) => 4 * s), caps).map((b) => {
    const lo = Math.min(...b.paramIndices.map((i) => offsets[i]));
    const hi = Math.max(...b.paramIndices.map((i) => offsets[i] + paramSizes[i]));
    return { params: b.paramIndices, lo, hi };
  });
  const ready = new Array<boolean>(paramSizes.length).fill(false);
  let next = 0;
  const mod = (a: number) => ((a % P) + P) % P;
  const allReduce = (lo: number, hi: number) => {
    const bounds = chunkBounds(hi - lo, P);
    // reduce-scatter: rank r sends chunk (r − s − 1) mod P and the receiver adds; all-gather: chunk (r − s) mod P, copied
    for (const [shift, op] of [[1, "reduce"], [0, "copy"]] as const) {
      for (let s = 0; s < P - 1; s++) {
        const msgs: GradMessage[] = [];
        for (let r = 0; r < P; r++) {
          const c = bounds[mod(r - s - shift)];
          if (c.end > c.start) msgs.push({ sender: r, receiver: mod(r + 1), offset: lo + c.start, length: c.end - c.start, op });
        }
        cluster.step(msgs);
      }
    }
    for (const g of cluster.grads) for (let i = lo; i < hi; i++) g[i] /= P;
  };
  return {
    gradReady(paramIndex) {
      if (!Number.isInteger(paramIndex) || paramIndex < 0 || paramIndex >= paramSizes.length) {
        throw new RangeError(`paramIndex must be an integer in [0, ${paramSizes.length}), got ${paramIndex}`);
      }
      if (ready[paramIndex]) throw new RangeError(`parameter ${paramIndex} was reported ready twice`);
      ready[paramIndex] = true;
      while (next < buckets.length && buckets[next].params.every((i) => ready[i])) {
        allReduce(buckets[next].lo, buckets[next].hi);
        next++;
      }
    },
    finish() {
      if (next < buckets.length) {
        const missing = paramSizes.map((_, i) => i).filter((i) => !ready[i]);
        throw new RangeError(`buckets ${next}..${buckets.length - 1} were never all-reduced: parameters ${missing.join(", ")} never became ready`);
      }
    },
  };
}
