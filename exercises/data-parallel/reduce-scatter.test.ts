import * as fc from "fast-check";
import { defineExercise, expectSame, property, expectThrows, type AnyFunction } from "../harness/index.js";
import { reduceScatter as libReduceScatter } from "../../lib/collectives/reduceScatter.js";
import type { reduceScatter } from "./reduce-scatter.js";

type F = typeof reduceScatter;
const TOL = { abs: 1e-9, rel: 1e-9 };
/** The lib's ring reduce-scatter (inputs are multiples of 1/8, so float32 sums are exact). */
const reference: F = (buffers) => libReduceScatter(buffers).result.map((r) => Array.from(r));
const same = (f: F, buffers: number[][], hint: string) => expectSame(f, reference, [buffers], { tol: TOL, hint, name: "reduceScatter" });
const SECTION = "the page's section \"Ring all-reduce, step by step\" (how the buffer is cut)";
/** Fails unless f(buffers) throws a RangeError whose message matches `pattern`. */
async function expectRangeError(f: F, buffers: number[][], pattern: RegExp, hint: string) {
  await expectThrows(f as AnyFunction, [buffers] as unknown[], pattern, { class: RangeError, hint });
}


export default defineExercise<F>({
  id: "5.3",
  kind: "transcription",
  title: "reduce-scatter",
  chapter: "data-parallel",
  solution: ["lib/collectives/reduceScatter.ts", "lib/collectives/ringPhases.ts", "lib/collectives/chunkBounds.ts", "lib/data-parallel/"],
  file: "exercises/data-parallel/reduce-scatter.ts",
  exportName: "reduceScatter",
  signature: "reduceScatter(buffers: number[][]): number[][]",
  section: "reduce-scatter-and-all-gather",
  summary:
    "Return, for rank r, chunk r of the elementwise sum of the P buffers, chunks cut as numpy.array_split cuts them. Edge cases: n < P (empty chunks), n = 0, P = 1; no buffer or buffers of different lengths throw a RangeError. Tolerance |Δ| ≤ 1e-9 + 1e-9·|expected|.",
  reference,
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await same(f, [[1, 2, 3], [10, 20, 30]], `3 numbers over 2 ranks: which chunk is longer? (${SECTION})`);
    } },
    { name: "worked example (P = 2, n = 4)", points: 1, run: async (f) => {
        await same(f, [[1, 2, 3, 4], [10, 20, 30, 40]], "rank 0 gets the sum of elements 0–1, rank 1 of elements 2–3");
    } },
    { name: "n not a multiple of P", points: 2, run: async (f) => {
        await same(f, [[1, 2, 3, 4, 5, 6, 7], [1, 1, 1, 1, 1, 1, 1], [0.5, 0, 0, 0, 0, 0, -0.5]], `7 numbers over 3 ranks: where do the extra elements go? (${SECTION})`);
        await same(f, [[1, 2, 3, 4, 5], [5, 4, 3, 2, 1], [1, 1, 1, 1, 1], [0, 0, 0, 0, 1]], "5 numbers over 4 ranks");
    } },
    { name: "n < P, n = 0, P = 1", points: 1, run: async (f) => {
        await same(f, [[1, 2], [3, 4], [5, 6]], "2 numbers over 3 ranks: the last rank gets an empty array");
        await same(f, [[], [], []], "empty buffers: every rank gets an empty array");
        await same(f, [[1, 2, 3]], "one rank: its whole buffer");
    } },
    { name: "no buffer, or buffers of different lengths, throw a RangeError", points: 1, run: async (f) => {
        await expectRangeError(f, [], /numRanks|one buffer per rank/, "the stub's contract: a collective needs at least one rank");
        await expectRangeError(f, [[1, 2, 3], [1, 2]], /buffers\[1\] has length 2, expected 3/, "the stub's contract: every rank's buffer has the same length");
    } },
    { name: "random P ≤ 32 and n ≤ 300", points: 2, run: (f) =>
        property(
          fc.integer({ min: 1, max: 32 }).chain((P) => fc.integer({ min: 0, max: 300 }).chain((n) => fc.array(fc.array(fc.integer({ min: -800, max: 800 }).map((k) => k / 8), { minLength: n, maxLength: n }), { minLength: P, maxLength: P }))),
          (buffers) => same(f, buffers, `rank r gets chunk r of the sum; check your chunk boundaries (${SECTION})`).then(() => {}),
          { numRuns: 80 },
        ) },
  ],
});
