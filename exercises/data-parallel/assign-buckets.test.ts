import * as fc from "fast-check";
import { defineExercise, expectSame, property, expectThrows, type AnyFunction } from "../harness/index.js";
import { assignBuckets as libAssignBuckets, MIB } from "../../lib/data-parallel/assignBuckets.js";
import type { assignBuckets } from "./assign-buckets.js";

type F = typeof assignBuckets;
const reference: F = (paramBytes, bucketCapBytes, firstBucketCapBytes) =>
  libAssignBuckets(paramBytes, { bucketCapBytes, firstBucketCapBytes }).map((b) => b.paramIndices);
const same = (f: F, args: Parameters<F>, hint: string) => expectSame(f, reference, args, { hint, name: "assignBuckets" });
const SECTION = "the buckets paragraph of the page's section \"DataParallel versus DistributedDataParallel\"";
/** Fails unless f(...args) throws a RangeError whose message matches `pattern`. */
async function expectRangeError(f: F, args: Parameters<F>, pattern: RegExp, hint: string) {
  await expectThrows(f as AnyFunction, args as unknown[], pattern, { class: RangeError, hint });
}

export default defineExercise<F>({
  id: "5.4",
  kind: "transcription",
  title: "DDP gradient buckets",
  chapter: "data-parallel",
  file: "exercises/data-parallel/assign-buckets.ts",
  exportName: "assignBuckets",
  signature: "assignBuckets(paramBytes: number[], bucketCapBytes: number, firstBucketCapBytes: number): number[][]",
  section: "data-parallel-versus-distributed-data-parallel",
  summary:
    "The buckets PyTorch's DDP reducer uses after its first iteration, for gradients ready in reverse forward order: in all-reduce order, each bucket's parameter indices in ready order; a bucket closes as soon as its bytes reach its cap (≥); the first bucket's cap is firstBucketCapBytes (PyTorch 1 MiB), later ones bucketCapBytes (bucket_cap_mb·2^20). Bad sizes or caps throw a RangeError naming the field.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await same(f, [[4, 4, 4, 4], 8, 4], `which gradient is ready first? (${SECTION})`);
    } },
    { name: "worked example", points: 1, run: async (f) => {
        await same(f, [[3, 5, 2, 6, 1], 6, 4], `which gradient is ready first, and when does a bucket close? (${SECTION})`);
    } },
    { name: "a bucket closes when it reaches its cap exactly", points: 1, run: async (f) => {
        await same(f, [[4, 4, 4, 4], 8, 4], "a bucket that holds exactly its cap: is it full?");
    } },
    { name: "a bucket may exceed its cap by its last parameter", points: 1, run: async (f) => {
        await same(f, [[1, 100, 1], 10, 2], "a parameter larger than the cap still goes somewhere: may a bucket exceed its cap?");
        await same(f, [[5, 5, 5, 5, 5], 7, 7], "a bucket can exceed its cap by its last parameter");
    } },
    { name: "the first bucket has its own (smaller) cap", points: 1, run: async (f) => {
        await same(f, [Array.from({ length: 30 }, () => 2 * MIB), 25 * MIB, MIB], "PyTorch's defaults: the first bucket has its own cap");
    } },
    { name: "no parameters, zero-byte parameters", points: 1, run: async (f) => {
        await same(f, [[], 10, 1], "no parameter: no bucket");
        await same(f, [[0, 0, 3, 0], 2, 1], "a parameter of 0 bytes is a parameter like any other");
    } },
    { name: "bad sizes and caps throw a RangeError naming the field", points: 1, run: async (f) => {
        const h = "the stub's contract lists each error and its message";
        await expectRangeError(f, [[4, -1, 4], 8, 4], /paramBytes\[1\]/, h);
        await expectRangeError(f, [[4, 4, Infinity], 8, 4], /paramBytes\[2\]/, "Infinity is not a size");
        await expectRangeError(f, [[Number.NaN], 8, 4], /paramBytes\[0\]/, "NaN is not a size");
        await expectRangeError(f, [[4, "4" as unknown as number], 8, 4], /paramBytes\[1\]/, "a string is not a size, even \"4\"");
        await expectRangeError(f, [[4, 4], 0, 4], /bucketCapBytes/, h);
        await expectRangeError(f, [[4, 4], -8, 4], /bucketCapBytes/, h);
        await expectRangeError(f, [[4, 4], 8, Infinity], /firstBucketCapBytes/, "an infinite cap never closes a bucket: reject it");
        await expectRangeError(f, [[], 8, 0], /firstBucketCapBytes/, "check the caps even when there is no parameter");
    } },
    { name: "random models", points: 1, run: (f) =>
        property(
          fc.tuple(fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 40 }), fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 3000 })),
          (args) => same(f, args, `compare your buckets with the rule in ${SECTION}`).then(() => {}),
          { numRuns: 150 },
        ) },
  ],
});
