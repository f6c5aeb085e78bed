import * as fc from "fast-check";
import { defineExercise, expectSame, property } from "../harness/index.js";
import { assignBuckets as libAssignBuckets, MIB } from "../../lib/data-parallel/assignBuckets.js";
import type { assignBuckets } from "./assign-buckets.js";

type F = typeof assignBuckets;
const reference: F = (paramBytes, bucketCapBytes, firstBucketCapBytes) =>
  libAssignBuckets(paramBytes, { bucketCapBytes, firstBucketCapBytes }).map((b) => b.paramIndices);
const same = (f: F, args: Parameters<F>, hint: string) => expectSame(f, reference, args, { hint, name: "assignBuckets" });

export default defineExercise<F>({
  id: "5.4",
  title: "DDP gradient buckets",
  chapter: "data-parallel",
  file: "exercises/data-parallel/assign-buckets.ts",
  exportName: "assignBuckets",
  signature: "assignBuckets(paramBytes: number[], bucketCapBytes: number, firstBucketCapBytes: number): number[][]",
  summary:
    "Group parameters into DDP buckets as PyTorch's reducer does after its first iteration: walk them in reverse forward order (the order gradients become ready), add each to the open bucket, close it once its bytes reach the cap (≥); the first bucket's cap is firstBucketCapBytes (PyTorch 1 MiB), later ones bucketCapBytes (bucket_cap_mb·2^20, default 25 MiB). Return the parameter indices of each bucket in all-reduce order.",
  reference,
  checks: [
    { name: "worked example", points: 1, run: async (f) => {
        await same(f, [[3, 5, 2, 6, 1], 6, 4], "walk from the last parameter: [4, 3] reaches 7 ≥ 4, [2, 1] reaches 7 ≥ 6, [0] is left over");
    } },
    { name: "a bucket closes when it reaches its cap exactly", points: 1, run: async (f) => {
        await same(f, [[4, 4, 4, 4], 8, 4], "close when bytes ≥ cap, not only when bytes > cap");
    } },
    { name: "a bucket may exceed its cap by its last parameter", points: 1, run: async (f) => {
        await same(f, [[1, 100, 1], 10, 2], "add the parameter first, then compare with the cap: [2, 1] holds 101 bytes");
        await same(f, [[5, 5, 5, 5, 5], 7, 7], "add, then close: every bucket here holds two parameters (10 ≥ 7)");
    } },
    { name: "the first bucket has its own (smaller) cap", points: 1, run: async (f) => {
        await same(f, [Array.from({ length: 30 }, () => 2 * MIB), 25 * MIB, MIB], "PyTorch defaults: the first 2 MiB gradient fills the 1 MiB first bucket alone; then 13 gradients reach 26 MiB ≥ 25 MiB");
    } },
    { name: "no parameters, zero-byte parameters", points: 1, run: async (f) => {
        await same(f, [[], 10, 1], "no parameter: no bucket (return [])");
        await same(f, [[0, 0, 3, 0], 2, 1], "a parameter of 0 bytes joins the open bucket like any other");
    } },
    { name: "random models", points: 2, run: (f) =>
        property(
          fc.tuple(fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 40 }), fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 3000 })),
          (args) => same(f, args, "reverse order, add then close at ≥ cap, first cap only for the first bucket").then(() => {}),
          { numRuns: 150 },
        ) },
  ],
});
