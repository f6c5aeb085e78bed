import { describe, expect, it } from "vitest";
import * as fc from "fast-check";
import { assignBuckets, MIB } from "./assignBuckets.js";

describe("assignBuckets", () => {
  it("assignBuckets(paramBytes) fills buckets in reverse layer order, closing a bucket once it reaches its cap (worked example)", () => {
    // layers 0..4 of 3, 5, 2, 6, 1 bytes; first cap 4, then 6.
    // reverse order: 4 (1) → 3 (6): 7 ≥ 4 close [4,3]; 2 (2) → 1 (5): 7 ≥ 6 close [2,1]; 0 (3) left over.
    expect(assignBuckets([3, 5, 2, 6, 1], { firstBucketCapBytes: 4, bucketCapBytes: 6 })).toEqual([
      { paramIndices: [4, 3], bytes: 7, capBytes: 4 },
      { paramIndices: [2, 1], bytes: 7, capBytes: 6 },
      { paramIndices: [0], bytes: 3, capBytes: 6 },
    ]);
  });

  it("assignBuckets closes a bucket at exactly its cap (>=, as reducer.cpp) and gives an oversized parameter its own bucket", () => {
    expect(assignBuckets([4, 4], { firstBucketCapBytes: 4, bucketCapBytes: 4 }).map((b) => b.paramIndices)).toEqual([[1], [0]]);
    expect(assignBuckets([1, 100, 1], { firstBucketCapBytes: 2, bucketCapBytes: 10 }).map((b) => b.paramIndices)).toEqual([[2, 1], [0]]);
  });

  it("assignBuckets defaults to PyTorch's caps: first bucket 1 MiB, then bucket_cap_mb = 25 MiB", () => {
    const layers = Array.from({ length: 30 }, () => 2 * MIB); // 60 MiB of 2 MiB gradients
    const buckets = assignBuckets(layers);
    expect(buckets[0]).toEqual({ paramIndices: [29], bytes: 2 * MIB, capBytes: MIB });
    expect(buckets[1].bytes).toBe(26 * MIB); // 13 tensors: 24 MiB < 25 MiB, 26 MiB ≥ 25 MiB
    expect(buckets[1].capBytes).toBe(25 * MIB);
  });

  it("assignBuckets of no parameters is no bucket; bad caps and sizes are rejected", () => {
    expect(assignBuckets([])).toEqual([]);
    expect(() => assignBuckets([1], { bucketCapBytes: 0 })).toThrow("bucketCapBytes must be a finite number > 0, got 0");
    expect(() => assignBuckets([1, -1])).toThrow("paramBytes[1] must be a finite number >= 0, got -1");
  });

  it("property: buckets partition the parameters in reverse order; each closed bucket reached its cap only with its last parameter", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 60 }), fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 3000 }), (sizes, cap, first) => {
        const buckets = assignBuckets(sizes, { bucketCapBytes: cap, firstBucketCapBytes: first });
        expect(buckets.flatMap((b) => b.paramIndices)).toEqual(sizes.map((_, i) => sizes.length - 1 - i));
        buckets.forEach((b, k) => {
          expect(b.capBytes).toBe(k === 0 ? first : cap);
          expect(b.bytes).toBe(b.paramIndices.reduce((s, i) => s + sizes[i], 0));
          const withoutLast = b.bytes - sizes[b.paramIndices.at(-1)!];
          expect(withoutLast).toBeLessThan(b.capBytes);
          if (k < buckets.length - 1) expect(b.bytes).toBeGreaterThanOrEqual(b.capBytes);
        });
      }),
      { seed: 41, numRuns: 200 },
    );
  });
});
