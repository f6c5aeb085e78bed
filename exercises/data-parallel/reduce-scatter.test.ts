import * as fc from "fast-check";
import { defineExercise, expectSame, property } from "../harness/index.js";
import { reduceScatter as libReduceScatter } from "../../lib/collectives/reduceScatter.js";
import type { reduceScatter } from "./reduce-scatter.js";

type F = typeof reduceScatter;
const TOL = { abs: 1e-9, rel: 1e-9 };
/** The lib's ring reduce-scatter (inputs are multiples of 1/8, so float32 sums are exact). */
const reference: F = (buffers) => libReduceScatter(buffers).result.map((r) => Array.from(r));
const same = (f: F, buffers: number[][], hint: string) => expectSame(f, reference, [buffers], { tol: TOL, hint, name: "reduceScatter" });

export default defineExercise<F>({
  id: "5.3",
  title: "reduce-scatter",
  chapter: "data-parallel",
  file: "exercises/data-parallel/reduce-scatter.ts",
  exportName: "reduceScatter",
  signature: "reduceScatter(buffers: number[][]): number[][]",
  summary:
    "Return, for rank r, chunk r of the elementwise sum of the P buffers, chunks cut like numpy.array_split (the first n mod P chunks have ⌈n/P⌉ numbers). Edge cases: n < P (empty chunks), n = 0, P = 1. Tolerance |Δ| ≤ 1e-9 + 1e-9·|expected|.",
  reference,
  checks: [
    { name: "worked example (P = 2, n = 4)", points: 1, run: async (f) => {
        await same(f, [[1, 2, 3, 4], [10, 20, 30, 40]], "rank 0 gets the sum of elements 0–1, rank 1 of elements 2–3");
    } },
    { name: "n not a multiple of P", points: 2, run: async (f) => {
        await same(f, [[1, 2, 3, 4, 5, 6, 7], [1, 1, 1, 1, 1, 1, 1], [0.5, 0, 0, 0, 0, 0, -0.5]], "7 numbers over 3 ranks: chunks of 3, 2, 2 — the extra elements go to the first chunks");
        await same(f, [[1, 2, 3, 4, 5], [5, 4, 3, 2, 1], [1, 1, 1, 1, 1], [0, 0, 0, 0, 1]], "5 numbers over 4 ranks: chunks of 2, 1, 1, 1");
    } },
    { name: "n < P, n = 0, P = 1", points: 1, run: async (f) => {
        await same(f, [[1, 2], [3, 4], [5, 6]], "2 numbers over 3 ranks: the last rank gets an empty array");
        await same(f, [[], [], []], "empty buffers: every rank gets an empty array");
        await same(f, [[1, 2, 3]], "one rank: its whole buffer");
    } },
    { name: "random P ≤ 32 and n ≤ 300", points: 2, run: (f) =>
        property(
          fc.integer({ min: 1, max: 32 }).chain((P) => fc.integer({ min: 0, max: 300 }).chain((n) => fc.array(fc.array(fc.integer({ min: -800, max: 800 }).map((k) => k / 8), { minLength: n, maxLength: n }), { minLength: P, maxLength: P }))),
          (buffers) => same(f, buffers, "rank r gets chunk r (array_split boundaries) of the sum of all ranks' buffers").then(() => {}),
          { numRuns: 80 },
        ) },
  ],
});
